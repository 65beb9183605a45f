package io.wharf.servlet.internal;

import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import io.wharf.servlet.security.AuthenticatedUser;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.LoginService;

/**
 * FORM login (section 13.6.3): a client without a user gets the login page (a forward, so the
 * address bar keeps the page it asked for) and the request it made is saved in its session;
 * the page posts {@code j_username} and {@code j_password} to {@code j_security_check}; on
 * success the session gets a new id (no session fixation), keeps the user, and the client is
 * redirected to the saved request, which is then restored — a POST with its form parameters
 * too; on failure the error page is shown. Immutable; the state is in the sessions.
 */
final class FormLogin implements Authenticator {

    /** The session attribute of the logged-in user. */
    static final String USER = "io.wharf.servlet.security.user";
    /** The session attribute of the request saved before the login page. */
    static final String SAVED = "io.wharf.servlet.security.saved";
    static final String CHECK = "/j_security_check";

    private final LoginService users;
    private final LoginConfig config;

    /** A request saved to be made again after the login: its URI with query, method and parameters. */
    record SavedRequest(String uri, String method, Map<String, String[]> parameters) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
    }

    FormLogin(LoginService users, LoginConfig config) {
        this.users = users;
        this.config = config;
    }

    @Override
    public String authType() {
        return "FORM";
    }

    @Override
    public AuthenticatedUser authenticate(ServletExchange exchange) {
        HttpSession session = exchange.request().getSession(false);
        return session != null && session.getAttribute(USER) instanceof AuthenticatedUser user ? user : null;
    }

    @Override
    public void challenge(ServletExchange exchange) throws IOException, ServletException {
        ServletApiRequest request = exchange.request();
        String query = request.getQueryString();
        Map<String, String[]> parameters = "POST".equals(request.getMethod()) ? new LinkedHashMap<>(request.getParameterMap()) : Map.of();
        request.getSession(true).setAttribute(SAVED, new SavedRequest(request.getRequestURI() + (query == null ? "" : "?" + query),
            request.getMethod(), parameters));
        HttpServletResponse response = exchange.response();
        response.setHeader("Cache-Control", "no-store");
        exchange.context().getRequestDispatcher(config.loginPage()).forward(request, response);
    }

    /** @return whether {@code pathInContext} is where the login form posts */
    static boolean isCheck(String pathInContext) {
        return pathInContext.endsWith(CHECK);
    }

    /** Checks the posted credentials: redirects to the saved request on success, shows the error page on failure. */
    void check(ServletExchange exchange) throws IOException, ServletException {
        ServletApiRequest request = exchange.request();
        HttpServletResponse response = exchange.response();
        if (!"POST".equals(request.getMethod())) {
            response.sendError(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
            return;
        }
        AuthenticatedUser user = users.login(request.getParameter("j_username"), request.getParameter("j_password"));
        if (user == null) {
            response.setHeader("Cache-Control", "no-store");
            exchange.context().getRequestDispatcher(config.errorPage()).forward(request, response);
            return;
        }
        HttpSession session = request.getSession(true);
        request.changeSessionId();
        session.setAttribute(USER, user);
        request.authentication().set(user, authType());
        String target = session.getAttribute(SAVED) instanceof SavedRequest saved ? saved.uri()
            : request.getContextPath() + "/";
        response.sendRedirect(response.encodeRedirectURL(target), HttpServletResponse.SC_SEE_OTHER);
    }

    /**
     * @return {@code request} as the request saved before the login when this is the client
     *     coming back to it after logging in (the saved one is then forgotten); else {@code request}
     */
    static HttpServletRequest restore(ServletApiRequest request) {
        HttpSession session = request.getSession(false);
        if (session == null || !(session.getAttribute(SAVED) instanceof SavedRequest saved)
                || !(session.getAttribute(USER) instanceof AuthenticatedUser)) {
            return request;
        }
        String query = request.getQueryString();
        if (!saved.uri().equals(request.getRequestURI() + (query == null ? "" : "?" + query))) {
            return request;
        }
        session.removeAttribute(SAVED);
        if (!"POST".equals(saved.method())) {
            return request;
        }
        return new HttpServletRequestWrapper(request) {
            @Override
            public String getMethod() {
                return saved.method();
            }

            @Override
            public String getParameter(String name) {
                String[] values = saved.parameters().get(name);
                return values == null || values.length == 0 ? null : values[0];
            }

            @Override
            public Map<String, String[]> getParameterMap() {
                return java.util.Collections.unmodifiableMap(saved.parameters());
            }

            @Override
            public java.util.Enumeration<String> getParameterNames() {
                return java.util.Collections.enumeration(saved.parameters().keySet());
            }

            @Override
            public String[] getParameterValues(String name) {
                String[] values = saved.parameters().get(name);
                return values == null ? null : values.clone();
            }
        };
    }
}
