package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

import io.wharf.servlet.security.SecurityConstraint;

/**
 * A context's security constraints as a lookup (Servlet 6.1 section 13.8): the constraints of
 * the URL pattern that best matches a path (by the servlet mapping rules, section 13.8.3),
 * combined for the request's method (section 13.8.1): an empty auth constraint denies whatever
 * else applies; a constraint without one lets unauthenticated users in; otherwise the roles add
 * up. The transport is confidential only when every constraint that applies asks for it.
 * Methods that a pattern's constraints do not cover are open, or denied when the application
 * says {@code deny-uncovered-http-methods}.
 *
 * <p><b>Threads.</b> Immutable once built; read by any request thread.
 */
final class ConstraintTable {

    /** What applies to one request. */
    record Rule(boolean denied, boolean authenticate, Set<String> roles, boolean confidential) {

        static final Rule OPEN = new Rule(false, false, Set.of(), false);
        static final Rule DENIED = new Rule(true, false, Set.of(), false);
    }

    /** The constraints of one URL pattern. */
    private record PatternConstraints(String pattern, List<SecurityConstraint> constraints) {
    }

    private final ServletMappings<PatternConstraints> patterns = new ServletMappings<>();
    private final boolean denyUncovered;
    private final boolean empty;

    ConstraintTable(List<SecurityConstraint> constraints, boolean denyUncovered) {
        Map<String, List<SecurityConstraint>> byPattern = new LinkedHashMap<>();
        for (SecurityConstraint constraint : constraints) {
            for (String pattern : constraint.urlPatterns()) {
                byPattern.computeIfAbsent(pattern, key -> new ArrayList<>()).add(constraint);
            }
        }
        for (Map.Entry<String, List<SecurityConstraint>> entry : byPattern.entrySet()) {
            patterns.add(entry.getKey(), new PatternConstraints(entry.getKey(), List.copyOf(entry.getValue())));
        }
        this.denyUncovered = denyUncovered;
        this.empty = byPattern.isEmpty();
    }

    boolean isEmpty() {
        return empty;
    }

    /** @return what applies to {@code method} on {@code pathInContext} */
    Rule ruleFor(String pathInContext, String method) {
        if (empty) {
            return Rule.OPEN;
        }
        ServletMatch<PatternConstraints> match = patterns.match(pathInContext);
        if (match == null) {
            return Rule.OPEN;
        }
        List<SecurityConstraint> covering = new ArrayList<>();
        boolean methodSpecific = false;
        for (SecurityConstraint constraint : match.target().constraints()) {
            if (!constraint.methods().isEmpty() || !constraint.omissions().isEmpty()) {
                methodSpecific = true;
            }
            if (constraint.covers(method)) {
                covering.add(constraint);
            }
        }
        if (covering.isEmpty()) {
            return methodSpecific && denyUncovered ? Rule.DENIED : Rule.OPEN;
        }
        return combine(covering);
    }

    private static Rule combine(List<SecurityConstraint> constraints) {
        boolean unauthenticated = false;
        boolean confidential = true;
        Set<String> roles = new HashSet<>();
        for (SecurityConstraint constraint : constraints) {
            Set<String> allowed = constraint.roles();
            if (allowed != null && allowed.isEmpty()) {
                return Rule.DENIED;
            }
            if (allowed == null) {
                unauthenticated = true;
            } else {
                roles.addAll(allowed);
            }
            if (constraint.transport() != TransportGuarantee.CONFIDENTIAL) {
                confidential = false;
            }
        }
        return new Rule(false, !unauthenticated, unauthenticated ? Set.of() : Set.copyOf(roles), confidential);
    }
}
