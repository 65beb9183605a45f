package io.wharf.examples;

import java.nio.file.Path;

import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.util.InvocationType;

/**
 * A server that speaks HTTP/1.1 and HTTP/2 to the same handler: on its cleartext port,
 * HTTP/1.1 and h2c (by prior knowledge or by {@code Upgrade: h2c}); on its TLS port, h2 or
 * http/1.1 as ALPN decides. The handler answers with the version the request came by. See
 * docs/http2.md.
 */
public final class Http2Server {

    private Http2Server() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        int tlsPort = args.length > 1 ? Integer.parseInt(args[1]) : 8443;
        Running running = start(port, tlsPort, Path.of(".wharf", "demo-tls"));
        System.out.println("curl --http2-prior-knowledge http://localhost:" + running.port() + "/   (or --http2 for Upgrade)");
        System.out.println("curl -k https://localhost:" + running.tlsPort() + "/   (h2 by ALPN)");
        running.server().join();
    }

    /** A started server and its two ports. */
    public record Running(Server server, int port, int tlsPort) {
    }

    /**
     * @param port the cleartext port (0: any free one)
     * @param tlsPort the TLS port (0: any free one)
     * @param certificates where the self-signed demo certificate is kept (made when missing)
     */
    public static Running start(int port, int tlsPort, Path certificates) throws Exception {
        Server server = new Server();
        HttpConfiguration http = new HttpConfiguration();
        // HTTP/2's own settings: what we announce, our receive windows, and the budgets that bound a client.
        SessionConfiguration http2 = new SessionConfiguration()
                .setMaxConcurrentStreams(256)
                .setInitialStreamWindow(256 * 1024)
                .setResetBudget(100);

        ServerConnector cleartext = new ServerConnector(server,
                new HttpConnectionFactory(http), new Http2CleartextConnectionFactory(http, http2));
        cleartext.setPort(port);
        server.addConnector(cleartext);

        ServerConnector tls = new ServerConnector(server, new TlsConnectionFactory(DemoCertificate.in(certificates)),
                new HttpConnectionFactory(http), new Http2ConnectionFactory(http, http2));
        tls.setPort(tlsPort);
        server.addConnector(tls);

        server.setHandler(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Response.write(response, true, "Hello over " + request.getConnectionMetaData().getHttpVersion() + "\n", callback);
            return true;
        }));
        server.start();
        return new Running(server, cleartext.getLocalPort(), tls.getLocalPort());
    }
}
