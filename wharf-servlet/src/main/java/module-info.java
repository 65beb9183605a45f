/**
 * Wharf's Jakarta Servlet 6.1 container, as it is being built: so far the mapping of a path in
 * a context to a servlet (Servlet 6.1 chapter 12) and the choice of the filters that run before
 * it (section 6.2.4), both in the unexported {@code io.wharf.servlet.internal} package, on top of
 * Wharf's one path-matching engine, {@code io.wharf.http.pathmap}. The container's API package
 * ({@code io.wharf.servlet}, with the handler that puts a servlet context on Wharf's server) is
 * exported when it has its first type.
 */
module io.wharf.servlet {
    requires transitive jakarta.servlet;
    requires io.wharf.http;
}
