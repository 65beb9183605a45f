/**
 * Wharf's HTTP/2 codecs: HPACK header compression (RFC 7541) in {@code io.wharf.http2.hpack}
 * and the frame parser and generator (RFC 9113 sections 4 and 6) in
 * {@code io.wharf.http2.frames}. Sessions, streams and the server and client transports
 * build on these.
 */
module io.wharf.http2 {
    requires transitive io.wharf.http;
    requires transitive io.wharf.io;

    exports io.wharf.http2.hpack;
    exports io.wharf.http2.frames;
    exports io.wharf.http2.session;
}
