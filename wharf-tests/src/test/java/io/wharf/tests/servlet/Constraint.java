package io.wharf.tests.servlet;

import java.util.List;
import java.util.Set;

import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

/**
 * One {@code <security-constraint>} of a test application (Servlet 6.1 section 13.8) as data,
 * which each {@link ServletPeer} turns into its own container's constraint: the URL patterns,
 * the methods it covers (all, those listed, or all but the omitted ones), who may pass and
 * over which transport.
 *
 * @param urlPatterns the URL patterns, as in servlet mappings
 * @param methods the methods listed ({@code <http-method>}); empty for all
 * @param omissions the methods left out ({@code <http-method-omission>}); only when {@code methods} is empty
 * @param roles the roles allowed: null for no {@code <auth-constraint>} (anyone), empty for nobody,
 *     {@code "**"} for any authenticated user
 * @param transport NONE or CONFIDENTIAL
 */
record Constraint(List<String> urlPatterns, Set<String> methods, Set<String> omissions, Set<String> roles,
        TransportGuarantee transport) {

    Constraint {
        urlPatterns = List.copyOf(urlPatterns);
        methods = Set.copyOf(methods);
        omissions = Set.copyOf(omissions);
        roles = roles == null ? null : Set.copyOf(roles);
        if (!methods.isEmpty() && !omissions.isEmpty()) {
            throw new IllegalArgumentException("methods or omissions, not both");
        }
    }

    /** @return a constraint that lets users with one of {@code roles} (none: nobody) reach {@code pattern} by every method */
    static Constraint roles(String pattern, String... roles) {
        return new Constraint(List.of(pattern), Set.of(), Set.of(), Set.of(roles), TransportGuarantee.NONE);
    }

    /** @return this constraint for {@code methods} only */
    Constraint forMethods(String... methods) {
        return new Constraint(urlPatterns, Set.of(methods), Set.of(), roles, transport);
    }

    /** @return this constraint for every method but {@code omitted} */
    Constraint omitting(String... omitted) {
        return new Constraint(urlPatterns, Set.of(), Set.of(omitted), roles, transport);
    }

    /** @return a constraint with no auth constraint that asks for {@code transport} on {@code pattern} */
    static Constraint transport(String pattern, TransportGuarantee transport) {
        return new Constraint(List.of(pattern), Set.of(), Set.of(), null, transport);
    }

    /** @return the roles as an array, empty for none or nobody */
    String[] roleArray() {
        return roles == null ? new String[0] : roles.stream().sorted().toArray(String[]::new);
    }
}
