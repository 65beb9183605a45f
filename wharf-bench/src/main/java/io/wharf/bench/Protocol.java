package io.wharf.bench;

/**
 * What a scenario of a macro run speaks to a server, and so which of the server's ports it
 * loads and with which tool: HTTP/1.1 in clear text ({@link Wrk}), HTTP/2 in clear text with
 * prior knowledge, or HTTP/2 over TLS chosen by ALPN ({@link H2load} for both).
 */
enum Protocol {
    HTTP_1_1,
    H2C,
    H2
}
