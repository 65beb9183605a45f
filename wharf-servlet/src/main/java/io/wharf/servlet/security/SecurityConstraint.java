package io.wharf.servlet.security;

import java.util.List;
import java.util.Objects;
import java.util.Set;

import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

/**
 * One {@code <security-constraint>} (Servlet 6.1 section 13.8): for requests whose path matches
 * one of the URL patterns (matched like servlet mappings) and whose method is covered — every
 * method, the methods listed, or every method but the omitted ones — who may pass and over
 * which transport.
 *
 * @param urlPatterns  the URL patterns, as in servlet mappings
 * @param methods      the HTTP methods it covers; empty for all (unless omissions are given)
 * @param omissions    the HTTP methods it does not cover; only when {@code methods} is empty
 * @param roles        the roles allowed: null for no auth constraint (anyone, unauthenticated),
 *                     empty for nobody, {@code "*"} for any role of the application,
 *                     {@code "**"} for any authenticated user
 * @param transport    NONE, or CONFIDENTIAL for TLS only
 */
public record SecurityConstraint(List<String> urlPatterns, Set<String> methods, Set<String> omissions, Set<String> roles,
                                 TransportGuarantee transport) {

    /** Checks the parts and copies them. */
    public SecurityConstraint {
        urlPatterns = List.copyOf(urlPatterns);
        if (urlPatterns.isEmpty()) {
            throw new IllegalArgumentException("a security constraint needs at least one url-pattern");
        }
        methods = Set.copyOf(methods);
        omissions = Set.copyOf(omissions);
        if (!methods.isEmpty() && !omissions.isEmpty()) {
            throw new IllegalArgumentException("a security constraint lists http-methods or http-method-omissions, not both: "
                + urlPatterns);
        }
        roles = roles == null ? null : Set.copyOf(roles);
        transport = Objects.requireNonNullElse(transport, TransportGuarantee.NONE);
    }

    /** @return a constraint that lets only users with one of {@code roles} reach {@code urlPatterns}, by every method */
    public static SecurityConstraint roles(List<String> urlPatterns, String... roles) {
        return new SecurityConstraint(urlPatterns, Set.of(), Set.of(), Set.of(roles), TransportGuarantee.NONE);
    }

    /** @return a constraint that lets nobody reach {@code urlPatterns} by {@code methods} (all when none) */
    public static SecurityConstraint deny(List<String> urlPatterns, String... methods) {
        return new SecurityConstraint(urlPatterns, Set.of(methods), Set.of(), Set.of(), TransportGuarantee.NONE);
    }

    /** @return whether it covers {@code method} */
    public boolean covers(String method) {
        if (!methods.isEmpty()) {
            return methods.contains(method);
        }
        return !omissions.contains(method);
    }
}
