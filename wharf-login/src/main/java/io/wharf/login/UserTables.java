package io.wharf.login;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where {@link JdbcLoginService} finds its users: the table of users with its name and password
 * hash columns, and the table of roles with its user name and role columns. Each name is an
 * unquoted SQL identifier — a letter or {@code _}, then letters, digits or {@code _}, at most
 * 63 characters — optionally qualified by a schema ({@code auth.users}); anything else is refused
 * when the record is made, so a name can never carry SQL into the statements built from it.
 * Immutable.
 *
 * @param users         the table of users, one row a user
 * @param name          its column of user names, the primary key
 * @param passwordHash  its column of password hashes ({@link PasswordHash#encoded()})
 * @param roles         the table of roles, one row a user and a role
 * @param roleUser      its column of user names
 * @param role          its column of role names
 */
public record UserTables(String users, String name, String passwordHash, String roles, String roleUser, String role) {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");

    /** {@code users(name, password_hash)} and {@code user_roles(name, role)}. */
    public static final UserTables DEFAULT = new UserTables("users", "name", "password_hash", "user_roles", "name", "role");

    /** @throws IllegalArgumentException naming the first name that is not an SQL identifier */
    public UserTables {
        table(users, "users");
        column(name, "name");
        column(passwordHash, "passwordHash");
        table(roles, "roles");
        column(roleUser, "roleUser");
        column(role, "role");
    }

    private static void table(String value, String what) {
        Objects.requireNonNull(value, what);
        String[] parts = value.split("\\.", -1);
        if (parts.length > 2 || !IDENTIFIER.matcher(parts[0]).matches() || parts.length == 2 && !IDENTIFIER.matcher(parts[1]).matches()) {
            throw new IllegalArgumentException(what + " '" + value + "' is not an SQL table name (an identifier of letters, digits and _,"
                + " optionally after a schema and a dot)");
        }
    }

    private static void column(String value, String what) {
        Objects.requireNonNull(value, what);
        if (!IDENTIFIER.matcher(value).matches()) {
            throw new IllegalArgumentException(what + " '" + value + "' is not an SQL column name (an identifier of letters, digits and _)");
        }
    }

    /** @return the query of a user's hash, by name: one parameter */
    String selectHash() {
        return "SELECT " + passwordHash + " FROM " + users + " WHERE " + name + " = ?";
    }

    /** @return the query of a user's roles, by name: one parameter */
    String selectRoles() {
        return "SELECT " + role + " FROM " + roles + " WHERE " + roleUser + " = ?";
    }

    /** @return the statements that make both tables when they are missing */
    String[] createTables() {
        return new String[] {
            "CREATE TABLE IF NOT EXISTS " + users + " (" + name + " VARCHAR(" + UserNames.MAX_NAME + ") PRIMARY KEY, "
                + passwordHash + " VARCHAR(512) NOT NULL)",
            "CREATE TABLE IF NOT EXISTS " + roles + " (" + roleUser + " VARCHAR(" + UserNames.MAX_NAME + ") NOT NULL, "
                + role + " VARCHAR(" + UserNames.MAX_ROLE + ") NOT NULL, PRIMARY KEY (" + roleUser + ", " + role + "))"
        };
    }

    /** @return the statement that adds a user: name and hash */
    String insertUser() {
        return "INSERT INTO " + users + " (" + name + ", " + passwordHash + ") VALUES (?, ?)";
    }

    /** @return the statement that adds one role of a user: name and role */
    String insertRole() {
        return "INSERT INTO " + roles + " (" + roleUser + ", " + role + ") VALUES (?, ?)";
    }
}
