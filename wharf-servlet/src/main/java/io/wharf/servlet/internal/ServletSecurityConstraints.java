package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.HttpConstraintElement;
import jakarta.servlet.HttpMethodConstraintElement;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.ServletSecurity.EmptyRoleSemantic;

import io.wharf.servlet.security.SecurityConstraint;

/**
 * A servlet's {@code @ServletSecurity} (or {@code ServletRegistration.setServletSecurity}) as
 * the security constraints of one of its URL patterns (Servlet 6.1 section 13.4.1): one per
 * {@code @HttpMethodConstraint}, for its method, and one for every other method from the
 * {@code @HttpConstraint}. Stateless.
 */
final class ServletSecurityConstraints {

    private ServletSecurityConstraints() {
    }

    static List<SecurityConstraint> of(String pattern, ServletSecurityElement element) {
        List<SecurityConstraint> constraints = new ArrayList<>();
        Set<String> methods = new LinkedHashSet<>();
        for (HttpMethodConstraintElement method : element.getHttpMethodConstraints()) {
            methods.add(method.getMethodName());
            constraints.add(new SecurityConstraint(List.of(pattern), Set.of(method.getMethodName()), Set.of(), roles(method),
                method.getTransportGuarantee()));
        }
        constraints.add(new SecurityConstraint(List.of(pattern), Set.of(), methods, roles(element), element.getTransportGuarantee()));
        return constraints;
    }

    /** @return null to permit everyone, empty to deny everyone, else the roles allowed */
    private static Set<String> roles(HttpConstraintElement element) {
        String[] allowed = element.getRolesAllowed();
        if (allowed.length > 0) {
            return Set.of(allowed);
        }
        return element.getEmptyRoleSemantic() == EmptyRoleSemantic.DENY ? Set.of() : null;
    }
}
