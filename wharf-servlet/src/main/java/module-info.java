/**
 * Wharf's Jakarta Servlet 6.1 container. {@link io.wharf.servlet.ServletContextHandler} puts a
 * servlet context on Wharf's server as one core handler: its servlets, filters and listeners,
 * the servlet request and response over the core ones, request dispatching, error pages and
 * asynchronous processing. The mapping of paths to servlets (Servlet 6.1 chapter 12) and of
 * requests to filters (section 6.2.4) lives in the unexported {@code io.wharf.servlet.internal}
 * package, on Wharf's one path-matching engine, {@code io.wharf.http.pathmap}.
 */
module io.wharf.servlet {
    requires transitive jakarta.servlet;
    requires transitive io.wharf.server;
    // LoginService.commonName reads certificate subjects with javax.naming.ldap.LdapName (RFC 4514 escapes).
    requires java.naming;

    exports io.wharf.servlet;
    exports io.wharf.servlet.security;
}
