package io.wharf.servlet.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.server.HttpConfiguration;
import io.wharf.servlet.security.AuthenticatedUser;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.LoginService;

/**
 * The security of one started context (Servlet 6.1 chapter 13): its constraints, its login
 * method and its users. {@link #admit} runs before each REQUEST dispatch: FORM's
 * {@code j_security_check}, then the constraint of the path and method — denied (403), needing
 * TLS (a redirect to the secure port, or 403 when none is known), needing a user (the login
 * method's challenge when there is none, 403 when the user lacks the roles).
 *
 * <p><b>Threads.</b> Immutable once built; any request thread.
 */
final class ContextSecurity {

    private final LoginService users;
    private final LoginConfig config;
    private final ConstraintTable constraints;
    private final Set<String> declaredRoles;
    private final Authenticator authenticator;

    ContextSecurity(LoginService users, LoginConfig config, ConstraintTable constraints, Set<String> declaredRoles, Duration nonceLifetime) {
        this.users = users;
        this.config = config;
        this.constraints = constraints;
        this.declaredRoles = Set.copyOf(declaredRoles);
        String realm = config.realm() != null ? config.realm() : users.getName();
        this.authenticator = switch (config.method()) {
            case BASIC -> new BasicLogin(users, realm);
            case DIGEST -> new DigestLogin(users, realm, nonceLifetime);
            case FORM -> new FormLogin(users, config);
            case CLIENT_CERT -> new CertificateLogin(users);
        };
    }

    LoginService users() {
        return users;
    }

    LoginConfig config() {
        return config;
    }

    Authenticator authenticator() {
        return authenticator;
    }

    /**
     * @return the request to dispatch — the one given, or the request a FORM login saved and
     *     now restores — or null when the response answers it (challenge, refusal, redirect)
     */
    HttpServletRequest admit(ServletExchange exchange, String pathInContext) throws IOException, ServletException {
        ServletApiRequest request = exchange.request();
        HttpServletResponse response = exchange.response();
        if (authenticator instanceof FormLogin form && FormLogin.isCheck(pathInContext)) {
            form.check(exchange);
            return null;
        }
        ConstraintTable.Rule rule = constraints.ruleFor(pathInContext, request.getMethod());
        if (rule.denied()) {
            response.sendError(HttpServletResponse.SC_FORBIDDEN);
            return null;
        }
        if (rule.confidential() && !request.isSecure()) {
            redirectToSecure(exchange);
            return null;
        }
        if (!rule.authenticate()) {
            return authenticator instanceof FormLogin ? FormLogin.restore(request) : request;
        }
        AuthenticatedUser user = request.authentication().user();
        if (user == null) {
            authenticator.challenge(exchange);
            return null;
        }
        if (!allowed(user, rule.roles())) {
            response.sendError(HttpServletResponse.SC_FORBIDDEN);
            return null;
        }
        return authenticator instanceof FormLogin ? FormLogin.restore(request) : request;
    }

    private boolean allowed(AuthenticatedUser user, Set<String> roles) {
        if (roles.isEmpty() || roles.contains("**") && !declaredRoles.contains("**")) {
            return true;
        }
        for (String role : roles) {
            if (role.equals("*")) {
                if (declaredRoles.isEmpty() || user.roles().stream().anyMatch(declaredRoles::contains)) {
                    return true;
                }
            } else if (user.hasRole(role)) {
                return true;
            }
        }
        return false;
    }

    /** {@code isUserInRole} (section 13.3): {@code "**"} is any authenticated user unless the application declares such a role. */
    boolean isUserInRole(AuthenticatedUser user, String role) {
        if (user == null || role == null || role.equals("*")) {
            return false;
        }
        if (role.equals("**") && !declaredRoles.contains("**")) {
            return true;
        }
        return user.hasRole(role);
    }

    private static void redirectToSecure(ServletExchange exchange) throws IOException {
        ServletApiRequest request = exchange.request();
        HttpConfiguration configuration = request.core().getConnectionMetaData().getHttpConfiguration();
        int port = configuration.getSecurePort();
        if (port <= 0) {
            exchange.response().sendError(HttpServletResponse.SC_FORBIDDEN, "This resource is served over TLS only");
            return;
        }
        String host = request.getServerName();
        String query = request.getQueryString();
        String location = configuration.getSecureScheme() + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host)
            + (port == 443 ? "" : ":" + port) + request.getRequestURI() + (query == null ? "" : "?" + query);
        exchange.response().sendRedirect(location, HttpServletResponse.SC_FOUND, true);
    }
}
