/**
 * Wharf's HTTP layer, shared by server and client: fields, methods, versions and statuses,
 * URIs, cookies, MIME types, the HTTP/1 parser and generator, forms and multipart, and the
 * named compliance modes that relax strict parsing for legacy peers.
 */
module io.wharf.http {
    requires transitive io.wharf.util;

    exports io.wharf.http;
    exports io.wharf.http.form;
    exports io.wharf.http.compression;
    exports io.wharf.http.pathmap;
}
