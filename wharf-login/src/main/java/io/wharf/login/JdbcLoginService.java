package io.wharf.login;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

import javax.sql.DataSource;

import io.wharf.servlet.security.AuthenticatedUser;
import io.wharf.servlet.security.LoginService;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LoginService} whose users are rows of SQL tables, by default
 * {@code users(name PRIMARY KEY, password_hash)} and {@code user_roles(name, role)}; other names
 * come in a {@link UserTables}. Passwords are Argon2id or BCrypt hashes ({@link PasswordHash}),
 * as in a password file. Every statement is prepared once per call with the user's name as its
 * parameter; the table and column names in it were checked as SQL identifiers when the
 * {@code UserTables} was made.
 *
 * <pre>{@code
 * JdbcLoginService users = new JdbcLoginService("Staff", dataSource);     // a pooled DataSource
 * users.createTablesIfMissing();                                          // optional
 * users.addUser("ann", "correct horse battery staple", "admin", "user");  // hashed with Argon2id
 * context.setLoginService(users);
 * }</pre>
 *
 * <p>Each login reads the user's hash and, when the password matches, their roles, on a
 * connection taken from the data source and closed at once: pooling is the data source's job.
 * An unknown user costs the same time as a wrong password (a dummy hash is checked). A row whose
 * hash is not one {@link PasswordHash#of} accepts fails to log in and is logged; a role name
 * that {@link UserNames} refuses is left out and logged. When the database cannot be reached,
 * the login throws {@link IllegalStateException}: an outage is an error, not a wrong password.
 * DIGEST login cannot work with one-way hashes ({@link #digestSecret} stays null); CLIENT-CERT
 * login works through {@link #user(String)}.
 *
 * <p>Threads: the servlet context calls it from request threads, concurrently; it keeps no
 * state but its settings, and each call uses a connection of its own.
 */
public final class JdbcLoginService implements LoginService {


    private static final Logger LOG = LoggerFactory.getLogger(JdbcLoginService.class);

    /** Where connections come from: a data source, or the driver manager and a URL. */
    @FunctionalInterface
    private interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private final String name;
    private final ConnectionSource connections;
    private final UserTables tables;
    private final String selectHash;
    private final String selectRoles;
    final VerifiedPasswords verified = new VerifiedPasswords();

    /** Users in the {@link UserTables#DEFAULT default tables} of {@code dataSource}. */
    public JdbcLoginService(String name, DataSource dataSource) {
        this(name, dataSource, UserTables.DEFAULT);
    }

    /** Users in {@code tables} of {@code dataSource}. */
    public JdbcLoginService(String name, DataSource dataSource, UserTables tables) {
        this(name, Objects.requireNonNull(dataSource, "dataSource")::getConnection, tables);
    }

    private JdbcLoginService(String name, ConnectionSource connections, UserTables tables) {
        this.name = Objects.requireNonNull(name, "name");
        this.connections = connections;
        this.tables = Objects.requireNonNull(tables, "tables");
        this.selectHash = tables.selectHash();
        this.selectRoles = tables.selectRoles();
    }

    /**
     * Users in {@code tables} of the database at a JDBC URL, a new connection for each call
     * through {@link DriverManager}: for small deployments; give a pooled {@link DataSource} to
     * the constructor otherwise.
     *
     * @param user     the database user, or null when the URL says it
     * @param password the database password, or null
     */
    public static JdbcLoginService forUrl(String name, String url, String user, String password, UserTables tables) {
        Objects.requireNonNull(url, "url");
        return new JdbcLoginService(name, () -> DriverManager.getConnection(url, user, password), tables);
    }

    public UserTables getTables() {
        return tables;
    }

    /**
     * Sets how long a password found right is remembered, as
     * {@link PasswordFileLoginService#setVerifiedPasswordLifetime} says; the roles are still read
     * on every login.
     */
    public void setVerifiedPasswordLifetime(Duration lifetime) {
        verified.setLifetime(lifetime);
    }

    public Duration getVerifiedPasswordLifetime() {
        return verified.getLifetime();
    }

    /**
     * Makes the tables when they are missing ({@code CREATE TABLE IF NOT EXISTS}): the users'
     * with the name as primary key, the roles' with (name, role) as primary key.
     */
    public void createTablesIfMissing() throws SQLException {
        try (Connection connection = connections.open(); Statement statement = connection.createStatement()) {
            for (String create : tables.createTables()) {
                statement.execute(create);
            }
        }
    }

    /**
     * Adds a user with the Argon2id hash of {@code password} and their roles, in one transaction.
     *
     * @throws IllegalArgumentException when the name or a role is not valid
     * @throws SQLException when the database refuses, for example because the user exists
     */
    public void addUser(String username, String password, String... roles) throws SQLException {
        StoredUser user = new StoredUser(username, PasswordHash.create(password), Set.of(roles));
        try (Connection connection = connections.open()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (PreparedStatement insertUser = connection.prepareStatement(tables.insertUser());
                 PreparedStatement insertRole = connection.prepareStatement(tables.insertRole())) {
                insertUser.setString(1, user.name());
                insertUser.setString(2, user.hash().encoded());
                insertUser.executeUpdate();
                for (String role : user.roles()) {
                    insertRole.setString(1, user.name());
                    insertRole.setString(2, role);
                    insertRole.executeUpdate();
                }
                connection.commit();
            } catch (SQLException | RuntimeException x) {
                connection.rollback();
                throw x;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        }
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public AuthenticatedUser login(String username, String password) {
        if (username == null || UserNames.nameProblem(username) != null) {
            return PasswordCheck.unknownUser(password);
        }
        try (Connection connection = connections.open()) {
            PasswordHash hash = hash(connection, username);
            if (hash == null || password == null) {
                return PasswordCheck.unknownUser(password);
            }
            return verified.check(username, hash, password) ? new AuthenticatedUser(username, roles(connection, username)) : null;
        } catch (SQLException x) {
            throw new IllegalStateException(name + ": the user store cannot be read: " + x.getMessage(), x);
        }
    }

    /** @return the user of this name with their roles, for CLIENT-CERT login, or null */
    @Override
    public AuthenticatedUser user(String username) {
        if (username == null || UserNames.nameProblem(username) != null) {
            return null;
        }
        try (Connection connection = connections.open()) {
            return hash(connection, username) == null ? null : new AuthenticatedUser(username, roles(connection, username));
        } catch (SQLException x) {
            throw new IllegalStateException(name + ": the user store cannot be read: " + x.getMessage(), x);
        }
    }

    /** @return null: a store of one-way hashes cannot tell DIGEST's secret, so DIGEST login fails for its users */
    @Override
    public String digestSecret(String username, String realm, String algorithm) {
        return null;
    }

    /** @return the hash of the user, or null when there is no such user or their hash is not valid */
    private PasswordHash hash(Connection connection, String username) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(selectHash)) {
            select.setString(1, username);
            try (ResultSet rows = select.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                String encoded = rows.getString(1);
                try {
                    return PasswordHash.of(encoded == null ? "" : encoded);
                } catch (IllegalArgumentException x) {
                    LOG.warn("{}: the password hash of '{}' in {}.{} cannot be used: {}", name, username, tables.users(),
                        tables.passwordHash(), x.getMessage());
                    return null;
                }
            }
        }
    }

    private Set<String> roles(Connection connection, String username) throws SQLException {
        Set<String> roles = new LinkedHashSet<>();
        try (PreparedStatement select = connection.prepareStatement(selectRoles)) {
            select.setString(1, username);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    String role = rows.getString(1);
                    String problem = UserNames.roleProblem(role);
                    if (problem == null) {
                        roles.add(role);
                    } else {
                        LOG.warn("{}: a role of '{}' in {}.{} is left out: {}", name, username, tables.roles(), tables.role(), problem);
                    }
                }
            }
        }
        return roles;
    }

    @Override
    public String toString() {
        return "JdbcLoginService{" + name + ", " + tables + "}";
    }
}
