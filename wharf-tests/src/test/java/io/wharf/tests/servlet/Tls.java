package io.wharf.tests.servlet;

/**
 * The TLS a test application's connector speaks instead of plain HTTP/1.1, part of its
 * {@link Deployment}: the server's certificate and, unless {@link ClientCertificates#NONE},
 * the authority whose client certificates it asks for, wanting one (a client without is still
 * served, and the application decides) or needing one (the handshake fails without); with
 * {@code http2}, h2 besides HTTP/1.1, chosen by ALPN (RFC 9113 §3.2). The files are the test
 * JVM's {@link Certificates}, which the differential fills in when it starts the peers.
 *
 * @param clientCertificates whether the connector asks for a client certificate signed by the test authority, and how
 * @param http2 whether the connector offers h2 by ALPN, besides http/1.1
 * @param certificates the files, or null until the differential has made them
 */
record Tls(ClientCertificates clientCertificates, boolean http2, Certificates certificates) {

    /** Whether the server asks for a client certificate in the handshake. */
    enum ClientCertificates {
        NONE, WANT, NEED
    }

    /** @return this TLS with its files in {@code made} */
    Tls in(Certificates made) {
        return new Tls(clientCertificates, http2, made);
    }

    /** @return whether the server asks for a client certificate at all */
    boolean asksForClientCertificates() {
        return clientCertificates != ClientCertificates.NONE;
    }
}
