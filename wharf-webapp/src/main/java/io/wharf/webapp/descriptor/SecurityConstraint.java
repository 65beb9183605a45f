package io.wharf.webapp.descriptor;

import java.util.List;
import java.util.Optional;

import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

/**
 * A {@code <security-constraint>} (Servlet 6.1 chapter 13).
 *
 * @param displayName {@code <display-name>}
 * @param collections the {@code <web-resource-collection>}s it protects
 * @param authConstraint {@code <auth-constraint>}: empty when there is none (no authentication
 *     needed); present with no roles when the element is empty (nobody may access)
 * @param transportGuarantee the {@code <transport-guarantee>} of {@code <user-data-constraint>}
 */
public record SecurityConstraint(
    Optional<String> displayName,
    List<WebResourceCollection> collections,
    Optional<AuthConstraint> authConstraint,
    Optional<TransportGuarantee> transportGuarantee) {

    /** Copies the list. */
    public SecurityConstraint {
        collections = List.copyOf(collections);
    }
}
