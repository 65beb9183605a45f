package io.wharf.examples;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.wharf.client.ContentResponse;
import io.wharf.client.HttpClient;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.client.transport.TransportExchange;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpVersion;
import io.wharf.io.Content;
import io.wharf.util.Promise;

/**
 * A transport of one's own for {@link HttpClient}, through the exported SPI
 * ({@code io.wharf.client.transport}): it answers each GET from a map of paths to texts, in
 * memory, and the client's redirects, listeners and queues work over it unchanged
 * (docs/client-transport.md).
 */
public final class TransportExample {

    private TransportExample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    /** Runs the example, printing what it gets to {@code out}. */
    public static void run(PrintStream out) throws Exception {
        HttpClient client = new HttpClient(new MapTransport(Map.of("/hello", "hello from a map", "/old", "->/hello")));
        client.start();
        try {
            ContentResponse hello = client.GET("http://example.test/hello");
            out.println(hello.getStatus() + " " + hello.getContentAsString());
            ContentResponse moved = client.GET("http://example.test/old");  // redirected by the client
            out.println(moved.getStatus() + " " + moved.getContentAsString());
            out.println(client.GET("http://example.test/nothing").getStatus());
        } finally {
            client.stop();
        }
    }

    /** Answers from a map: a text, {@code ->/path} for a redirect, 404 for a path not in it. */
    static final class MapTransport implements Transport {
        private final Map<String, String> pages;

        MapTransport(Map<String, String> pages) {
            this.pages = pages;
        }

        @Override
        public void connect(TransportDestination destination, Promise<ClientConnection> promise) {
            // Completed on another thread, as a real connect would be: the pool that asked goes on meanwhile.
            destination.connector().getExecutor().execute(() -> promise.succeeded(new MapConnection(destination)));
        }

        @Override
        public List<String> applicationProtocols() {
            return List.of();
        }

        /** One exchange at a time, each answered at once on the sending thread. */
        private final class MapConnection implements ClientConnection {
            private final TransportDestination destination;
            private volatile boolean open = true;

            MapConnection(TransportDestination destination) {
                this.destination = destination;
            }

            @Override
            public boolean send(TransportExchange exchange) {
                exchange.requestBegin();
                String target = exchange.requestHead().target();
                exchange.requestHeaders();
                exchange.requestCommitted();
                exchange.requestSucceeded();  // a GET has no content to read

                String page = pages.get(target);
                boolean redirect = page != null && page.startsWith("->");
                exchange.responseBegin(HttpVersion.HTTP_1_1, page == null ? 404 : redirect ? 302 : 200, null);
                if (redirect) {
                    exchange.responseHeader(new HttpField(HttpHeader.LOCATION, page.substring(2)));
                }
                exchange.responseHeaders();
                if (page != null && !redirect) {
                    Content.Chunk chunk = Content.Chunk.from(ByteBuffer.wrap(page.getBytes(StandardCharsets.UTF_8)), true);
                    // All of it at once: nothing more to tell, so the demand has nothing to resume.
                    exchange.responseContent(chunk, () -> { });
                    chunk.release();
                }
                exchange.responseSucceeded();
                if (exchange.tryComplete()) {
                    destination.release(this);
                    exchange.complete();
                }
                return true;
            }

            @Override
            public void abort(TransportExchange exchange, Throwable cause) {
                close();
            }

            @Override
            public boolean isOpen() {
                return open;
            }

            @Override
            public void close() {
                open = false;
                destination.connectionClosed(this, true);
            }
        }
    }
}
