package io.wharf.servlet.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.LoginService;
import io.wharf.servlet.security.SecurityConstraint;

/**
 * What a servlet context is told about security before it starts (chapter 13): who the users
 * are, how they log in, the constraints, whether uncovered methods are denied, the roles the
 * application declares and its servlets' role links; and, at the start, the
 * {@link ContextSecurity} made of all that and the servlets' own {@code @ServletSecurity}.
 *
 * <p>Threads: set on the thread that configures the context (the context checks it is still
 * configurable first); read by the thread that starts it, and role links by request threads.
 */
final class SecuritySettings {

    private final List<SecurityConstraint> constraints = new CopyOnWriteArrayList<>();
    private final Set<String> declaredRoles = new LinkedHashSet<>();
    private final Map<String, Map<String, String>> roleLinks = new ConcurrentHashMap<>();
    private volatile LoginService loginService;
    private volatile LoginConfig loginConfig;
    private volatile boolean denyUncoveredMethods;
    private volatile Duration digestNonceLifetime = DigestLogin.DEFAULT_NONCE_LIFETIME;

    void setLoginService(LoginService service) {
        this.loginService = service;
    }

    void setLoginConfig(LoginConfig config) {
        this.loginConfig = config;
    }

    void addConstraint(SecurityConstraint constraint) {
        constraints.add(constraint);
    }

    void setDenyUncoveredMethods(boolean deny) {
        this.denyUncoveredMethods = deny;
    }

    /** @throws IllegalArgumentException unless positive */
    void setDigestNonceLifetime(Duration lifetime) {
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("the DIGEST nonce lifetime must be positive, not " + lifetime);
        }
        this.digestNonceLifetime = lifetime;
    }

    void addRoleLink(String servletName, String roleName, String roleLink) {
        roleLinks.computeIfAbsent(servletName, name -> new ConcurrentHashMap<>()).put(roleName, roleLink);
    }

    /** @return the application role that {@code roleName}, as {@code servletName} uses it, stands for; or null */
    String roleLink(String servletName, String roleName) {
        Map<String, String> links = roleLinks.get(servletName);
        return links == null ? null : links.get(roleName);
    }

    /** @throws IllegalArgumentException for a null or empty name, before any is added */
    void declareRoles(String... roleNames) {
        for (String role : roleNames) {
            if (role == null || role.isEmpty()) {
                throw new IllegalArgumentException("a role name must not be null or empty");
            }
        }
        synchronized (declaredRoles) {
            declaredRoles.addAll(List.of(roleNames));
        }
    }

    /**
     * The constraints as configured plus those of the servlets' {@code @ServletSecurity} or
     * {@code setServletSecurity} for their patterns no configured constraint names (section
     * 13.4.1.3), with the login service.
     *
     * @param contextPath named in the error
     * @return the security of a start, or null when there is neither a constraint nor a login service
     * @throws IllegalStateException when there are constraints but no login service
     */
    ContextSecurity build(String contextPath, Iterable<ServletEntry> servlets) {
        List<SecurityConstraint> all = new ArrayList<>(constraints);
        Set<String> declaredPatterns = new HashSet<>();
        for (SecurityConstraint constraint : constraints) {
            declaredPatterns.addAll(constraint.urlPatterns());
        }
        for (ServletEntry servlet : servlets) {
            if (servlet.getServletSecurity() != null) {
                for (String pattern : servlet.getMappings()) {
                    if (!declaredPatterns.contains(pattern)) {
                        all.addAll(ServletSecurityConstraints.of(pattern, servlet.getServletSecurity()));
                    }
                }
            }
        }
        LoginService users = loginService;
        if (all.isEmpty() && users == null) {
            return null;
        }
        if (users == null) {
            throw new IllegalStateException("the servlet context " + contextPath + " has security constraints but no "
                + "LoginService to check users with");
        }
        LoginConfig config = loginConfig != null ? loginConfig : LoginConfig.basic(users.getName());
        Set<String> roles;
        synchronized (declaredRoles) {
            roles = Set.copyOf(declaredRoles);
        }
        return new ContextSecurity(users, config, new ConstraintTable(all, denyUncoveredMethods), roles, digestNonceLifetime);
    }
}
