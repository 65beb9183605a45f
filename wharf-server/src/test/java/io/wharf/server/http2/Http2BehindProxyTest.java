package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;

import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.ProxyHeader;
import io.wharf.server.ProxyV2Bytes;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.proxy.ProxyConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * h2c by prior knowledge behind a PROXY protocol header: the handler sees the client's address
 * from the header and the header itself, TLVs included, as HTTP/1.1's handlers do.
 */
class Http2BehindProxyTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    private LocalConnector start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration http = new HttpConfiguration();
        LocalConnector connector = new LocalConnector(server, new ProxyConnectionFactory(Http2CleartextConnectionFactory.H2C),
                new Http2CleartextConnectionFactory(http, new SessionConfiguration()));
        server.addConnector(connector);
        server.setHandler(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            String body = Request.getRemoteAddress(request) + ":" + Request.getRemotePort(request) + " header="
                    + request.getConnectionMetaData().getProxyHeader()
                        .map(header -> "v" + header.version() + " alpn=" + header.alpn().orElse("-")).orElse("none");
            Response.write(response, true, body, callback);
            return true;
        }));
        server.start();
        return connector;
    }

    @Test
    void theHandlerSeesTheClientsAddressAndTheHeader() throws Exception {
        LocalConnector connector = start();
        byte[] header = ProxyV2Bytes.tcp4("192.0.2.7", 40000, "192.0.2.1", 80).tlv(ProxyHeader.TLV_ALPN, "h2").build();
        try (RawHttp2Client client = new RawHttp2Client(connector)) {
            client.raw(header).start().get(1, "/where");
            assertEquals("DATA 1 192.0.2.7:40000 header=v2 alpn=h2 END_STREAM", client.await("DATA 1"));
        }
    }

    @Test
    void aV1HeaderReachesEveryStream() throws Exception {
        LocalConnector connector = start();
        byte[] header = "PROXY TCP4 198.51.100.3 192.0.2.1 51000 80\r\n".getBytes(StandardCharsets.US_ASCII);
        try (RawHttp2Client client = new RawHttp2Client(connector)) {
            client.raw(header).start().get(1, "/one").get(3, "/two");
            assertEquals("DATA 1 198.51.100.3:51000 header=v1 alpn=- END_STREAM", client.await("DATA 1"));
            assertEquals("DATA 3 198.51.100.3:51000 header=v1 alpn=- END_STREAM", client.await("DATA 3"));
        }
    }
}
