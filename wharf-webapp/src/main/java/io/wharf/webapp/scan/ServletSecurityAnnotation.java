package io.wharf.webapp.scan;

import java.util.List;

import jakarta.servlet.HttpConstraintElement;
import jakarta.servlet.HttpMethodConstraintElement;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.ServletSecurity.EmptyRoleSemantic;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

/**
 * The values of a servlet class's {@code @ServletSecurity} (Servlet 6.1 section 13.4.1), which
 * the container turns into constraints on the servlet's URL patterns once they are known.
 *
 * @param defaultConstraint its {@code value}, the {@code @HttpConstraint} for methods not named below
 * @param methodConstraints its {@code httpMethodConstraints}
 */
public record ServletSecurityAnnotation(Constraint defaultConstraint, List<MethodConstraint> methodConstraints) {

    /** Copies the list. */
    public ServletSecurityAnnotation {
        methodConstraints = List.copyOf(methodConstraints);
    }

    /** @return the same constraints as the Servlet API's element, for {@code ServletRegistration.Dynamic.setServletSecurity} */
    public ServletSecurityElement toElement() {
        return new ServletSecurityElement(defaultConstraint.toElement(), methodConstraints.stream()
            .map(method -> new HttpMethodConstraintElement(method.method(), method.constraint().toElement()))
            .toList());
    }

    /**
     * An {@code @HttpConstraint}, or the constraint part of an {@code @HttpMethodConstraint}.
     *
     * @param emptyRoleSemantic what applies when {@code rolesAllowed} is empty
     * @param transportGuarantee the transport it needs
     * @param rolesAllowed the roles allowed
     */
    public record Constraint(EmptyRoleSemantic emptyRoleSemantic, TransportGuarantee transportGuarantee, List<String> rolesAllowed) {

        /** The annotation's defaults: permit, no transport guarantee, no roles. */
        public static final Constraint DEFAULT = new Constraint(EmptyRoleSemantic.PERMIT, TransportGuarantee.NONE, List.of());

        /** Copies the list. */
        public Constraint {
            rolesAllowed = List.copyOf(rolesAllowed);
        }

        HttpConstraintElement toElement() {
            return rolesAllowed.isEmpty()
                ? new HttpConstraintElement(emptyRoleSemantic, transportGuarantee)
                : new HttpConstraintElement(emptyRoleSemantic, transportGuarantee, rolesAllowed.toArray(String[]::new));
        }
    }

    /**
     * An {@code @HttpMethodConstraint}.
     *
     * @param method the HTTP method
     * @param constraint its constraint
     */
    public record MethodConstraint(String method, Constraint constraint) {
    }
}
