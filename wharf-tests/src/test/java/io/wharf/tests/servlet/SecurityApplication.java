package io.wharf.tests.servlet;

import java.security.Principal;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.HttpConstraint;
import jakarta.servlet.annotation.HttpMethodConstraint;
import jakarta.servlet.annotation.ServletSecurity;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The test application of security (Servlet 6.1 chapter 13). Servlet {@code who} prints who the
 * request's user is ({@code getRemoteUser}, {@code getAuthType}, {@code getUserPrincipal},
 * {@code isUserInRole} for the declared roles, an undeclared one, {@code *} and {@code **}, the
 * subject of the TLS client certificate)
 * under paths that {@link #CONSTRAINTS} guard; {@code annotated} is secured by its
 * {@code @ServletSecurity} through {@code setServletSecurity}; {@code /login.html} and
 * {@code /error.html} are the FORM login's pages.
 */
final class SecurityApplication implements ServletContainerInitializer {

    static final List<Login.User> USERS = List.of(
        Login.User.of("ann", "secret", "admin", "user"),
        Login.User.of("bob", "hunter2", "user"),
        Login.User.of("cid", "plain"));

    static final String REALM = "Differential Realm";

    /**
     * Admins only under {@code /admin/*}; any user under {@code /user/*}; nobody under
     * {@code /none/*}; TLS for anyone under {@code /tls/*}; admins for POST only under
     * {@code /post-admin/*}; admins for every method but GET under {@code /omit-get/*}.
     * {@code /open/*} has no constraint.
     */
    static final Constraint[] CONSTRAINTS = {
        Constraint.roles("/admin/*", "admin"),
        Constraint.roles("/user/*", "**"),
        Constraint.roles("/none/*"),
        Constraint.transport("/tls/*", TransportGuarantee.CONFIDENTIAL),
        Constraint.roles("/post-admin/*", "admin").forMethods("POST"),
        Constraint.roles("/omit-get/*", "admin").omitting("GET"),
    };

    /** GET for users, DELETE for nobody, every other method for admins. */
    @ServletSecurity(value = @HttpConstraint(rolesAllowed = "admin"), httpMethodConstraints = {
        @HttpMethodConstraint(value = "GET", rolesAllowed = "user"),
        @HttpMethodConstraint(value = "DELETE", emptyRoleSemantic = ServletSecurity.EmptyRoleSemantic.DENY)})
    private static final class Annotated {
    }

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.declareRoles("admin", "user");
        context.addServlet("who", new PrintingServlet((request, response) -> who(request)))
            .addMapping("/admin/*", "/user/*", "/none/*", "/tls/*", "/post-admin/*", "/omit-get/*", "/open/*");
        ServletRegistration.Dynamic annotated = context.addServlet("annotated", new PrintingServlet((request, response) -> who(request)));
        annotated.addMapping("/annotated");
        annotated.setServletSecurity(new ServletSecurityElement(Annotated.class.getAnnotation(ServletSecurity.class)));
        context.addServlet("pages", new PrintingServlet((request, response) -> List.of(
            "page=" + request.getServletPath(),
            "dispatcherType=" + request.getDispatcherType(),
            "forwardedFrom=" + request.getAttribute("jakarta.servlet.forward.request_uri"),
            "user=" + request.getRemoteUser())))
            .addMapping("/login.html", "/error.html");
    }

    private static List<String> who(HttpServletRequest request) {
        Principal principal = request.getUserPrincipal();
        List<String> lines = new ArrayList<>();
        lines.add("method=" + request.getMethod());
        lines.add("servletPath=" + request.getServletPath());
        lines.add("remoteUser=" + request.getRemoteUser());
        lines.add("authType=" + request.getAuthType());
        lines.add("principal=" + (principal == null ? null : principal.getName()));
        lines.add("parameter p=" + request.getParameter("p"));
        lines.add("certificate=" + (request.getAttribute("jakarta.servlet.request.X509Certificate") instanceof X509Certificate[] chain
            ? chain[0].getSubjectX500Principal().getName() : null));
        for (String role : List.of("admin", "user", "undeclared", "*", "**")) {
            lines.add("isUserInRole(" + role + ")=" + request.isUserInRole(role));
        }
        return lines;
    }
}
