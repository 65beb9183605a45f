package io.wharf.webapp.descriptor;

import java.util.Optional;

/**
 * A servlet's {@code <security-role-ref>}: the role name its code uses and the application role it stands for.
 *
 * @param roleName the name the servlet passes to isUserInRole
 * @param roleLink the application's role, empty when the name is the role itself
 */
public record SecurityRoleRef(String roleName, Optional<String> roleLink) {
}
