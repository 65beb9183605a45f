/**
 * Wharf's server: the {@code Server}, its connectors, the core Handler API ({@code Request},
 * {@code Response}, {@code Handler}) and the standard handlers, in packages by job: the general
 * ones in {@code io.wharf.server.handler} (path mappings, size limits, statistics, the default
 * handler), and static files, compression, request logs, push and contexts in its
 * {@code resource}, {@code gzip}, {@code log}, {@code push} and {@code context} sub-packages.
 * HTTP/1.1 ({@code io.wharf.server.http1}), HTTP/2 ({@code io.wharf.server.http2}) and the
 * PROXY protocol ({@code io.wharf.server.proxy}) each have a package of their own, which the
 * core does not name: a connector is given the factories of the protocols it speaks.
 */
module io.wharf.server {
    requires transitive io.wharf.io;
    requires transitive io.wharf.http;
    // Only the HTTP/2 wing (io.wharf.server.http2) uses it: a server that speaks HTTP/1.1 alone
    // runs without wharf-http2 on its module path. Code that uses the wing reads it through this
    // module at compile time and resolves it at run time with its own requires or --add-modules.
    requires static transitive io.wharf.http2;
    // RequestLogOutput (io.wharf.server.handler.log) writes to an SLF4J Logger the caller may pass.
    requires transitive org.slf4j;

    exports io.wharf.server;
    exports io.wharf.server.handler;
    exports io.wharf.server.handler.context;
    exports io.wharf.server.handler.gzip;
    exports io.wharf.server.handler.log;
    exports io.wharf.server.handler.push;
    exports io.wharf.server.handler.resource;
    exports io.wharf.server.http1;
    exports io.wharf.server.proxy;
    exports io.wharf.server.tls;
    exports io.wharf.server.http2;
}
