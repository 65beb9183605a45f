package io.wharf.servlet.security;

import java.io.Serial;
import java.io.Serializable;
import java.security.Principal;
import java.util.Objects;
import java.util.Set;

/**
 * A user a {@link LoginService} authenticated: the principal a servlet sees through
 * {@code getUserPrincipal()}, and the roles {@code isUserInRole} checks. Immutable and
 * serializable, so a session can keep it (FORM login).
 *
 * @param name  the user's name
 * @param roles the user's roles
 */
public record AuthenticatedUser(String name, Set<String> roles) implements Principal, Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    /** Checks the name and copies the roles. */
    public AuthenticatedUser {
        Objects.requireNonNull(name, "name");
        roles = Set.copyOf(roles);
    }

    @Override
    public String getName() {
        return name;
    }

    /** @return whether the user has {@code role} */
    public boolean hasRole(String role) {
        return roles.contains(role);
    }

    @Override
    public String toString() {
        return name;
    }
}
