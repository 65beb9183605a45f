package io.wharf.tests;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.wharf.examples.DemoCertificate;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * A server on 127.0.0.1 (a free port), over plain TCP and optionally also a Unix domain
 * socket, or over TLS with the demo's self-signed certificate ({@link #tls}), for tests with
 * real clients. {@code /echo} answers with the method, URI and the content's length and text;
 * everything else goes to the handler given.
 */
final class TestServer implements AutoCloseable {

    final Server server;
    final ServerConnector connector;
    final ServerConnector unixConnector;

    TestServer(ByteBufferPool pool, Handler handler, Path unixSocket) throws Exception {
        this(pool, handler, unixSocket, null);
    }

    /**
     * @return a started server speaking HTTP/1.1 over TLS only, with the certificate
     *     {@link DemoCertificate} keeps in {@code certificates} (its {@code demo.pem} for clients to trust)
     */
    static TestServer tls(ByteBufferPool pool, Handler handler, Path certificates) throws Exception {
        return new TestServer(pool, handler, null, certificates);
    }

    private TestServer(ByteBufferPool pool, Handler handler, Path unixSocket, Path certificates) throws Exception {
        server = new Server(new QueuedThreadPool(), pool);
        connector = certificates == null ? new ServerConnector(server, new HttpConnectionFactory())
                : new ServerConnector(server, new TlsConnectionFactory(DemoCertificate.in(certificates)), new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        if (unixSocket != null) {
            unixConnector = new ServerConnector(server, new HttpConnectionFactory());
            unixConnector.setUnixSocket(unixSocket);
            server.addConnector(unixConnector);
        } else {
            unixConnector = null;
        }
        server.setHandler(new Handler.Sequence(echo(), handler));
        server.start();
    }

    /** @return {@code http://127.0.0.1:port} */
    String uri() {
        return "http://127.0.0.1:" + connector.getLocalPort();
    }

    static Handler echo() {
        return Handler.of((request, response, callback) -> {
            if (!request.getPathInContext().equals("/echo")) {
                return false;
            }
            String content = Request.getContentAsString(request, StandardCharsets.ISO_8859_1, 64 << 20);
            String text = request.getMethod() + " " + request.getHttpURI().getPathQuery() + " "
                    + request.getConnectionMetaData().getHttpVersion() + " length=" + content.length()
                    + (content.length() <= 64 ? " [" + content + "]" : "");
            Response.write(response, true, text, callback);
            return true;
        });
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
