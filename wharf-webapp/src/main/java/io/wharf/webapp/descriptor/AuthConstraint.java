package io.wharf.webapp.descriptor;

import java.util.List;

/**
 * An {@code <auth-constraint>}: the roles allowed. No roles means nobody is allowed; the role
 * "*" means every role the application declares, "**" any authenticated user.
 *
 * @param roleNames the {@code <role-name>}s in document order
 */
public record AuthConstraint(List<String> roleNames) {

    /** Copies the list. */
    public AuthConstraint {
        roleNames = List.copyOf(roleNames);
    }

    /** @return whether this constraint lets nobody in (an empty {@code <auth-constraint/>}) */
    public boolean deniesAll() {
        return roleNames.isEmpty();
    }
}
