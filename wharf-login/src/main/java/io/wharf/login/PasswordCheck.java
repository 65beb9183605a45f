package io.wharf.login;

import io.wharf.servlet.security.AuthenticatedUser;

/**
 * The one way both stores check a login: the password against the user's hash, or, when there is
 * no such user, against a dummy hash made with the same settings as {@link PasswordHash#create},
 * so an unknown name costs as much time as a wrong password and the time of an answer does not
 * tell who exists. (A store whose users' hashes have other settings, BCrypt ones for example,
 * answers for them in another time: keep a store's hashes alike.) Called on request threads;
 * stateless.
 */
final class PasswordCheck {

    /** The hash of a random password nobody knows, made once, on first use. */
    private static final class Dummy {
        static final PasswordHash HASH = PasswordHash.create(java.util.UUID.randomUUID().toString());
    }

    private PasswordCheck() {
    }

    /**
     * @param user     the stored user of the name given, or null when there is none
     * @param password the password given
     * @param verified the passwords the store found right lately
     * @return the authenticated user, or null when the user is unknown or the password wrong
     */
    static AuthenticatedUser login(StoredUser user, String password, VerifiedPasswords verified) {
        if (user == null || password == null) {
            unknownUser(password);
            return null;
        }
        return verified.check(user.name(), user.hash(), password) ? user.authenticated() : null;
    }

    /** Spends the time of a wrong password's check, for a name no user has; always fails. */
    static AuthenticatedUser unknownUser(String password) {
        Dummy.HASH.matches(password == null ? "" : password);
        return null;
    }
}
