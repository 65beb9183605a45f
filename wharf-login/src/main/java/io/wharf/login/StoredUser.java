package io.wharf.login;

import java.util.Set;

import io.wharf.servlet.security.AuthenticatedUser;

/**
 * A user as a store holds them: the name, the password's hash and the roles. Immutable; made
 * when a store reads its file or its rows, and read by the request threads that log in.
 *
 * @param name  the user's name, valid by {@link UserNames}
 * @param hash  the password's hash
 * @param roles the user's roles, each valid by {@link UserNames}
 */
record StoredUser(String name, PasswordHash hash, Set<String> roles) {

    StoredUser {
        UserNames.checkName(name);
        roles = UserNames.checkRoles(roles);
    }

    /** @return the user as the servlet container sees them, without a credential check */
    AuthenticatedUser authenticated() {
        return new AuthenticatedUser(name, roles);
    }
}
