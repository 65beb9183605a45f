package io.wharf.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.util.List;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;

import io.wharf.server.Handler;
import io.wharf.server.ProxyHeader;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.proxy.ProxyConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/1.1 over TLS with {@link TlsConnectionFactory} and {@link ServerTlsContext}, driven by the
 * JDK's {@code SSLSocket} over loopback: secure requests and their session, ALPN, certificates
 * chosen by SNI (exact and wildcard), PEM keys of every kind read, client certificates required,
 * reload of renewed files, and the refusals (old protocols, a wrong password).
 */
class TlsServerTest {

    @TempDir
    static Path keys;
    private static Path alpha;
    private static Path beta;
    private static Path wild;
    private static Path client;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path work;
    private Server server;
    private ServerConnector connector;

    @BeforeAll
    static void makeKeys() throws Exception {
        alpha = TestKeys.keyStore(keys, "alpha", "alpha.test", "localhost");
        beta = TestKeys.keyStore(keys, "beta", "beta.test");
        wild = TestKeys.keyStore(keys, "wild", "*.wild.test");
        client = TestKeys.keyStore(keys, "client", "client.test");
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** Answers scheme|secure|TLS protocol|cipher|client certificate subject. */
    private static Handler tlsEcho() {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            SSLSession session = request.getConnectionMetaData().getSslSession().orElse(null);
            String peer = "none";
            if (session != null) {
                try {
                    peer = ((X509Certificate) session.getPeerCertificates()[0]).getSubjectX500Principal().getName();
                } catch (javax.net.ssl.SSLPeerUnverifiedException none) {
                    // no client certificate
                }
            }
            Response.write(response, true, request.getHttpURI().getScheme() + "|" + request.isSecure() + "|"
                    + (session == null ? "-" : session.getProtocol() + "|" + session.getCipherSuite()) + "|" + peer
                    + request.getConnectionMetaData().getProxyHeader().flatMap(ProxyHeader::source).map(source -> "|proxied for " + source).orElse(""),
                    callback);
            return true;
        });
    }

    private void start(ServerTlsContext tls) throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        connector = new ServerConnector(server, 1, new TlsConnectionFactory(tls), new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(tlsEcho());
        server.start();
    }

    /** What one TLS exchange showed: the server's certificate CN, the ALPN protocol and the response. */
    private record Exchange(String serverName, String applicationProtocol, String response) {
    }

    private Exchange get(SSLContext context, String sni, List<String> protocols, List<String> alpn) throws IOException {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", connector.getLocalPort())) {
            socket.setSoTimeout(10_000);
            SSLParameters parameters = socket.getSSLParameters();
            if (sni != null) {
                parameters.setServerNames(List.of(new SNIHostName(sni)));
            }
            if (protocols != null) {
                parameters.setProtocols(protocols.toArray(String[]::new));
            }
            if (alpn != null) {
                parameters.setApplicationProtocols(alpn.toArray(String[]::new));
            }
            socket.setSSLParameters(parameters);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /tls HTTP/1.1\r\nHost: " + (sni == null ? "localhost" : sni) + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            X509Certificate served = (X509Certificate) socket.getSession().getPeerCertificates()[0];
            return new Exchange(served.getSubjectX500Principal().getName(), socket.getApplicationProtocol(), response);
        }
    }

    private static String body(Exchange exchange) {
        return exchange.response().substring(exchange.response().indexOf("\r\n\r\n") + 4);
    }

    @Test
    void aRequestOverTlsIsSecureAndCarriesItsSession() throws Exception {
        start(new ServerTlsContext().keyStore(alpha, TestKeys.PASSWORD));
        SSLContext trusting = TestKeys.clientContext(null, alpha);
        Exchange exchange = get(trusting, "alpha.test", null, List.of("h2", "http/1.1"));
        assertTrue(exchange.response().startsWith("HTTP/1.1 200 OK"), exchange.response());
        assertTrue(body(exchange).matches("https\\|true\\|TLSv1\\.3\\|TLS_(AES|CHACHA20)_.*\\|none"), body(exchange));
        assertEquals("http/1.1", exchange.applicationProtocol(), "ALPN picks the server's protocol among the offer");
        Exchange noAlpn = get(trusting, "alpha.test", null, null);
        assertEquals("", noAlpn.applicationProtocol());
        // TLS 1.2 still works, with an ECDHE AEAD suite only.
        assertTrue(body(get(trusting, null, List.of("TLSv1.2"), null)).matches("https\\|true\\|TLSv1\\.2\\|TLS_ECDHE_RSA_WITH_(AES_\\d+_GCM|CHACHA20_POLY1305)_SHA\\d+\\|none"));
    }

    @Test
    void pipelinedKeepAliveAndLargeRequestsOverTls() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        connector = new ServerConnector(server, 1, new TlsConnectionFactory(new ServerTlsContext().keyStore(alpha, TestKeys.PASSWORD)),
                new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(Handler.of((request, response, callback) -> {
            long length;
            try (InputStream in = io.wharf.server.Request.asInputStream(request)) {
                length = in.transferTo(OutputStream.nullOutputStream());
            }
            Response.write(response, true, request.getHttpURI().getPath() + "=" + length + ";", callback);
            return true;
        }));
        server.start();
        try (SSLSocket socket = (SSLSocket) TestKeys.clientContext(null, alpha).getSocketFactory().createSocket("127.0.0.1", connector.getLocalPort())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            // Twenty requests in one write: the decrypted bytes of several requests arrive in one read.
            StringBuilder pipelined = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                pipelined.append("GET /p").append(i).append(" HTTP/1.1\r\nHost: a\r\n\r\n");
            }
            out.write(pipelined.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            StringBuilder bodies = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                bodies.append(readBody(in));
            }
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                expected.append("/p").append(i).append("=0;");
            }
            assertEquals(expected.toString(), bodies.toString());
            // A 3 MB upload, then keep-alive requests one at a time.
            byte[] large = new byte[3_000_000];
            out.write(("POST /large HTTP/1.1\r\nHost: a\r\nContent-Length: " + large.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(large);
            out.flush();
            assertEquals("/large=3000000;", readBody(in));
            for (int i = 0; i < 50; i++) {
                out.write(("GET /k" + i + " HTTP/1.1\r\nHost: a\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertEquals("/k" + i + "=0;", readBody(in));
            }
        }
    }

    @Test
    void aProxyHeaderArrivingWithTheClientHelloIsNotTheEndOfTheConnection() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        connector = new ServerConnector(server, 1, new ProxyConnectionFactory(TlsConnectionFactory.PROTOCOL),
                new TlsConnectionFactory(new ServerTlsContext().keyStore(alpha, TestKeys.PASSWORD)), new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(tlsEcho());
        server.start();
        try (Socket socket = new Socket("127.0.0.1", connector.getLocalPort())) {
            socket.setSoTimeout(10_000);
            // The header and the ClientHello in one write: the server reads both at once.
            byte[] header = "PROXY TCP4 192.0.2.1 127.0.0.1 40000 443\r\n".getBytes(StandardCharsets.US_ASCII);
            try (EngineTlsClient client = new EngineTlsClient(TestKeys.clientContext(null, alpha), socket, "http/1.1", header)) {
                client.write("GET /tls HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String response = new String(client.readToEnd().bytes(), StandardCharsets.ISO_8859_1);
                assertTrue(response.startsWith("HTTP/1.1 200 OK"), response);
                assertTrue(response.contains("https|true|TLSv1.3|"), response);
                assertTrue(response.endsWith("|proxied for /192.0.2.1:40000"), "the handler sees the header under TLS: " + response);
            }
        }
    }

    /** Reads one response with a Content-Length from {@code in} and returns its content. */
    private static String readBody(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head);
            }
            head.append((char) b);
        }
        String text = head.toString().toLowerCase(java.util.Locale.ROOT);
        int at = text.indexOf("content-length: ") + 16;
        int length = Integer.parseInt(text.substring(at, text.indexOf('\r', at)).trim());
        return new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
    }

    @Test
    void sniPicksTheCertificateThatNamesTheHost() throws Exception {
        start(new ServerTlsContext().keyStore(alpha, TestKeys.PASSWORD).keyStore(beta, TestKeys.PASSWORD).keyStore(wild, TestKeys.PASSWORD));
        // A new client context each time: a client resumes its last session, certificate included.
        assertEquals("CN=beta.test", get(TestKeys.clientContext(null, alpha, beta, wild), "beta.test", null, null).serverName());
        assertEquals("CN=alpha.test", get(TestKeys.clientContext(null, alpha, beta, wild), "alpha.test", null, null).serverName());
        assertEquals("CN=*.wild.test", get(TestKeys.clientContext(null, alpha, beta, wild), "x.wild.test", null, null).serverName());
        assertEquals("CN=alpha.test", get(TestKeys.clientContext(null, alpha, beta, wild), "a.b.wild.test", null, null).serverName(),
                "a wildcard covers one label only");
        assertEquals("CN=alpha.test", get(TestKeys.clientContext(null, alpha, beta, wild), "other.test", null, null).serverName(),
                "the first is the default");
        assertEquals("CN=alpha.test", get(TestKeys.clientContext(null, alpha, beta, wild), null, null, null).serverName());
    }

    @Test
    void pemKeysInPkcs8Pkcs1AndEncryptedPkcs8AreRead() throws Exception {
        Path chain = TestKeys.certificatePem(beta, work.resolve("chain.pem"));
        SSLContext trusting = TestKeys.clientContext(null, beta);
        for (Path key : List.of(TestKeys.pkcs8Pem(beta, work.resolve("pkcs8.pem")), TestKeys.pkcs1Pem(beta, work.resolve("pkcs1.pem")))) {
            start(new ServerTlsContext().pem(chain, key));
            assertEquals("CN=beta.test", get(trusting, "beta.test", null, null).serverName(), key.getFileName().toString());
            server.stop();
        }
        Path encrypted = TestKeys.encryptedPkcs8Pem(beta, work.resolve("encrypted.pem"), "s3cret");
        start(new ServerTlsContext().pem(chain, encrypted, "s3cret"));
        assertTrue(body(get(trusting, "beta.test", null, null)).startsWith("https|true|"));
        server.stop();
        server = null;

        IllegalStateException wrong = assertThrows(IllegalStateException.class,
                () -> new ServerTlsContext().pem(chain, encrypted, "wrong").getSslContext());
        assertTrue(wrong.getMessage().contains("could not be decrypted"), wrong.getMessage());
        IllegalStateException unencrypted = assertThrows(IllegalStateException.class,
                () -> new ServerTlsContext().pem(chain, encrypted).getSslContext());
        assertTrue(unencrypted.getMessage().contains("no key password was given"), unencrypted.getMessage());
    }

    @Test
    void aRequiredClientCertificateIsCheckedAndShown() throws Exception {
        Path trust = TestKeys.trustStore(work.resolve("clients.p12"), client);
        start(new ServerTlsContext().keyStore(alpha, TestKeys.PASSWORD).trustStore(trust, TestKeys.PASSWORD)
                .clientAuth(ServerTlsContext.ClientAuth.NEED));
        Exchange withCertificate = get(TestKeys.clientContext(client, alpha), "alpha.test", null, null);
        assertTrue(body(withCertificate).endsWith("|CN=client.test"), body(withCertificate));
        // TLS 1.3: the server's refusal arrives with the client's first read, as an alert or a reset.
        assertThrows(IOException.class, () -> get(TestKeys.clientContext(null, alpha), "alpha.test", null, null));
        Path stranger = TestKeys.keyStore(work, "stranger", "stranger.test");
        assertThrows(IOException.class, () -> get(TestKeys.clientContext(stranger, alpha), "alpha.test", null, null));
    }

    @Test
    void renewedFilesAreServedAfterAReload() throws Exception {
        Path chain = work.resolve("site.pem");
        Path key = work.resolve("site-key.pem");
        TestKeys.certificatePem(alpha, chain);
        TestKeys.pkcs8Pem(alpha, key);
        ServerTlsContext tls = new ServerTlsContext().pem(chain, key);
        start(tls);
        SSLContext trusting = TestKeys.clientContext(null, alpha, beta);
        assertEquals("CN=alpha.test", get(trusting, null, null, null).serverName());
        assertTrue(!tls.reloadIfChanged(), "nothing changed yet");

        Path renewedChain = TestKeys.certificatePem(beta, work.resolve("renewed.pem"));
        Path renewedKey = TestKeys.pkcs8Pem(beta, work.resolve("renewed-key.pem"));
        Files.move(renewedChain, chain, StandardCopyOption.REPLACE_EXISTING);
        Files.move(renewedKey, key, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(chain, FileTime.fromMillis(System.currentTimeMillis() + 5_000));
        assertTrue(tls.reloadIfChanged());
        assertEquals("CN=beta.test", get(trusting, null, null, null).serverName(), "new connections get the renewed certificate");

        Files.writeString(key, "not a key");
        Files.setLastModifiedTime(key, FileTime.fromMillis(System.currentTimeMillis() + 10_000));
        IOException broken = assertThrows(IOException.class, tls::reload);
        assertTrue(broken.getMessage().contains(key.toString()), broken.getMessage());
        assertEquals("CN=beta.test", get(trusting, null, null, null).serverName(), "a failed reload keeps the last good context");
    }

    @Test
    void oldProtocolsAndBadKeystoresAreRefused() throws Exception {
        IllegalArgumentException old = assertThrows(IllegalArgumentException.class, () -> new ServerTlsContext().protocols("TLSv1.1"));
        assertTrue(old.getMessage().contains("TLSv1.1 is not allowed"), old.getMessage());

        start(new ServerTlsContext().keyStore(alpha, TestKeys.PASSWORD).protocols("TLSv1.3"));
        assertThrows(IOException.class, () -> get(TestKeys.clientContext(null, alpha), null, List.of("TLSv1.2"), null));
        server.stop();

        server = new Server(new QueuedThreadPool(), leaks.pool());
        connector = new ServerConnector(server, 1, new TlsConnectionFactory(new ServerTlsContext().keyStore(alpha, "wrong")), new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(tlsEcho());
        Exception failed = assertThrows(Exception.class, server::start);
        assertTrue(String.valueOf(failed.getMessage()).contains(alpha.toString()), String.valueOf(failed.getMessage()));
    }
}
