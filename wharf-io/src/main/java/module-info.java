/**
 * Wharf's I/O layer: selectors, endpoints and connections over TCP and Unix domain sockets,
 * TLS as an endpoint wrapper, and the client connector.
 */
module io.wharf.io {
    requires transitive io.wharf.util;
    requires org.slf4j;

    exports io.wharf.io;
    exports io.wharf.io.ssl;
    exports io.wharf.io.connect;
}
