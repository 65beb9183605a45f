package io.wharf.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.UUID;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Users in SQL tables of an in-memory H2 database: the schema made, custom names, bad names refused, logins. */
class JdbcLoginServiceTest {

    /** A database of this test's own, kept until {@link #closeDatabase()} by one open connection. */
    private final String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

    @AfterEach
    void closeDatabase() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN");
        }
    }

    private JdbcDataSource dataSource() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(url);
        return dataSource;
    }

    private void sql(String statement, String... parameters) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); PreparedStatement prepared = connection.prepareStatement(statement)) {
            for (int i = 0; i < parameters.length; i++) {
                prepared.setString(i + 1, parameters[i]);
            }
            prepared.execute();
        }
    }

    @Test
    void makesTheDefaultTablesAddsUsersAndLogsThemIn() throws SQLException {
        JdbcLoginService users = new JdbcLoginService("Staff", dataSource());
        users.createTablesIfMissing();
        users.createTablesIfMissing();
        users.addUser("ann", "secret", "admin", "user");
        sql("INSERT INTO users (name, password_hash) VALUES (?, ?)", "carol", PasswordHashTest.HTPASSWD_BCRYPT);

        assertEquals(Set.of("admin", "user"), users.login("ann", "secret").roles());
        assertEquals(Set.of(), users.login("carol", "U*U pass").roles(), "a BCrypt row logs in too");
        assertNull(users.login("ann", "wrong"));
        assertNull(users.login("nobody", "secret"));
        assertNull(users.login("ann' OR '1'='1", "secret"));
        assertEquals(Set.of("admin", "user"), users.user("ann").roles());
        assertNull(users.user("nobody"));
        assertNull(users.digestSecret("ann", "Staff", "MD5"));
        assertThrows(SQLException.class, () -> users.addUser("ann", "again"), "the name is the primary key");
        assertThrows(IllegalArgumentException.class, () -> users.addUser("dave", "pw", "bad role"));
        assertNull(users.user("dave"), "nothing of a refused user is written");
    }

    @Test
    void aPasswordFoundRightIsRememberedUntilTheRowChanges() throws SQLException {
        JdbcLoginService users = new JdbcLoginService("Staff", dataSource());
        users.createTablesIfMissing();
        users.addUser("ann", "secret", "user");
        assertEquals(Set.of("user"), users.login("ann", "secret").roles());
        sql("INSERT INTO user_roles (name, role) VALUES (?, ?)", "ann", "admin");
        assertEquals(Set.of("admin", "user"), users.login("ann", "secret").roles(), "roles are read on every login");
        assertEquals(1, users.verified.hits());
        sql("UPDATE users SET password_hash = ? WHERE name = ?", PasswordHash.hash("changed"), "ann");
        assertNull(users.login("ann", "secret"), "a new hash in the row is checked afresh");
        assertEquals("ann", users.login("ann", "changed").getName());
        assertEquals(1, users.verified.hits());
    }

    @Test
    void readsTablesAndColumnsOfOtherNames() throws SQLException {
        sql("CREATE SCHEMA auth");
        UserTables tables = new UserTables("auth.accounts", "login", "pw_hash", "auth.grants", "account", "grant_name");
        JdbcLoginService users = JdbcLoginService.forUrl("Staff", url, null, null, tables);
        users.createTablesIfMissing();
        users.addUser("ann", "secret", "admin");
        sql("INSERT INTO auth.grants (account, grant_name) VALUES (?, ?)", "ann", "not a role!");
        assertEquals(Set.of("admin"), users.login("ann", "secret").roles(), "a role that is not a valid name is left out");
        assertEquals(tables, users.getTables());
    }

    @Test
    void refusesNamesThatAreNotSqlIdentifiers() {
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
            () -> new UserTables("users; DROP TABLE users", "name", "password_hash", "user_roles", "name", "role"));
        assertEquals("users 'users; DROP TABLE users' is not an SQL table name (an identifier of letters, digits and _,"
            + " optionally after a schema and a dot)", bad.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new UserTables("users", "name", "password_hash", "user_roles", "name", "\"role\""));
        assertThrows(IllegalArgumentException.class, () -> new UserTables("a.b.c", "name", "password_hash", "user_roles", "name", "role"));
        assertThrows(IllegalArgumentException.class, () -> new UserTables("users", "1name", "password_hash", "user_roles", "name", "role"));
        assertThrows(IllegalArgumentException.class, () -> new UserTables("users", "name", "pass-hash", "user_roles", "name", "role"));
        assertThrows(IllegalArgumentException.class, () -> new UserTables("users", "name", "password_hash", "user_roles", "name", "x".repeat(64)));
    }

    @Test
    void aRowWithABadHashDoesNotLogInAndAMissingDatabaseIsAnError() throws SQLException {
        JdbcLoginService users = new JdbcLoginService("Staff", dataSource());
        users.createTablesIfMissing();
        sql("INSERT INTO users (name, password_hash) VALUES (?, ?)", "bob", "hunter2");
        assertNull(users.login("bob", "hunter2"), "a plain-text password is never compared");
        sql("DROP TABLE user_roles");
        sql("DROP TABLE users");
        IllegalStateException outage = assertThrows(IllegalStateException.class, () -> users.login("bob", "hunter2"));
        assertTrue(outage.getMessage().startsWith("Staff: the user store cannot be read: "), outage.getMessage());
    }
}
