package io.wharf.tests.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import javax.net.ssl.SSLContext;

/**
 * The differential's requests over HTTP/2 with the JDK's {@link HttpClient} (h2 over TLS, by
 * ALPN; or h2c by {@code Upgrade}), a client Wharf did not write: each raw HTTP/1.1 request's method, target, header
 * fields and body are sent as an HTTP/2 request, and the response is read back as a
 * {@link RawResponse} of version {@code HTTP/2}. The fields HTTP/2 has no place for or the
 * client sets itself (Host becomes {@code :authority}; Connection, Content-Length, Expect,
 * Transfer-Encoding, Upgrade) are left out; a response that did not come over HTTP/2 is a
 * failure, but for a declined upgrade. A body in several parts goes as one DATA frame (or more) per part, {@code pause}
 * apart. The client does not show trailers, so they are not compared.
 *
 * <p>Made and closed by a test class; one request at a time on the test's thread (a paced
 * body is sent from a virtual thread of its own).
 */
final class Http2Client implements PeerClient, AutoCloseable {

    /** Fields of an HTTP/1.1 request that HTTP/2 does not carry or that the client sets itself. */
    static final List<String> LEFT_OUT = List.of("host", "connection", "content-length", "expect", "transfer-encoding", "upgrade");

    private final HttpClient client;
    private final Duration timeout;
    /** Whether HTTP/2 is asked for by upgrade, which a server may decline (then the response's version is HTTP/1.1). */
    private final boolean upgrading;

    /** @param tls what the client trusts: the peers' certificate */
    Http2Client(SSLContext tls, Duration timeout) {
        this(HttpClient.newBuilder().sslContext(tls), timeout, false);
    }

    /**
     * A client of {@code http} peers that speak h2c: the JDK's client has no prior knowledge, so
     * it asks for HTTP/2 with {@code Upgrade: h2c} on a connection's first request (RFC 7540
     * §3.2), then sends the next requests on that HTTP/2 connection. A server may decline the
     * upgrade (RFC 9110 §7.8) and answer over HTTP/1.1: the response's version says so.
     */
    Http2Client(Duration timeout) {
        this(HttpClient.newBuilder(), timeout, true);
    }

    private Http2Client(HttpClient.Builder builder, Duration timeout, boolean upgrading) {
        this.client = builder.version(HttpClient.Version.HTTP_2).connectTimeout(timeout).build();
        this.timeout = timeout;
        this.upgrading = upgrading;
    }

    @Override
    public RawResponse exchange(URI base, List<byte[]> parts, Duration pause) throws IOException {
        HttpRequest request = request(base, parts, pause, -1);
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for " + request);
        }
        boolean http2 = response.version() == HttpClient.Version.HTTP_2;
        if (!http2 && !upgrading) {
            throw new IOException("answered over " + response.version() + ", not HTTP/2");
        }
        HeaderFields headers = new HeaderFields();
        response.headers().map().forEach((name, values) -> values.forEach(value -> headers.add(name, value)));
        return new RawResponse(http2 ? "HTTP/2" : "HTTP/1.1", response.statusCode(), "", headers, response.body(), new HeaderFields());
    }

    /**
     * Starts {@code text}, a request whose body is shorter than the {@code declared} length, and
     * leaves its stream open after the body: the caller cancels the returned future, which
     * resets the stream (a client that goes away in the middle of the body).
     */
    CompletableFuture<HttpResponse<Void>> startUnfinished(URI base, String text, long declared) {
        return client.sendAsync(request(base, List.of(text.getBytes(StandardCharsets.ISO_8859_1)), Duration.ZERO, declared),
            HttpResponse.BodyHandlers.discarding());
    }

    /**
     * @param declared the body's length to declare, for a body left unfinished; -1 for the
     *     length of the parts' body, which then ends
     */
    private HttpRequest request(URI base, List<byte[]> parts, Duration pause, long declared) {
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        parts.forEach(whole::writeBytes);
        byte[] request = whole.toByteArray();
        String text = new String(request, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IllegalArgumentException("a request without the empty line that ends its header: " + text);
        }
        List<String> lines = Arrays.asList(text.substring(0, end).split("\r\n"));
        String[] requestLine = lines.getFirst().split(" ");
        List<ByteBuffer> body = bodyParts(parts, end + 4);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + requestLine[1])).timeout(timeout)
            .method(requestLine[0], publisher(body, pause, declared));
        for (String line : lines.subList(1, lines.size())) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).strip();
            if (!LEFT_OUT.contains(name.toLowerCase(Locale.ROOT))) {
                builder.header(name, line.substring(colon + 1).strip());
            }
        }
        return builder.build();
    }

    /** @return the bytes of {@code parts} from {@code bodyStart} on, part by part, empty parts left out */
    private static List<ByteBuffer> bodyParts(List<byte[]> parts, int bodyStart) {
        List<ByteBuffer> body = new ArrayList<>();
        int offset = 0;
        for (byte[] part : parts) {
            int from = Math.max(0, bodyStart - offset);
            if (from < part.length) {
                body.add(ByteBuffer.wrap(part, from, part.length - from));
            }
            offset += part.length;
        }
        return body;
    }

    private HttpRequest.BodyPublisher publisher(List<ByteBuffer> body, Duration pause, long declared) {
        long length = body.stream().mapToLong(ByteBuffer::remaining).sum();
        if (declared < 0 && body.size() <= 1) {
            return length == 0 ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body.getFirst().array(), body.getFirst().position(), (int) length);
        }
        return HttpRequest.BodyPublishers.fromPublisher(new Paced(body, pause, declared < 0, timeout), declared < 0 ? length : declared);
    }

    /**
     * A body sent in parts, {@code pause} apart, as the subscriber asks for them, from a virtual
     * thread; it completes after the last part when {@code ends}, or else stays open until the
     * subscription is cancelled. Every wait is bounded by {@code timeout}.
     */
    private record Paced(List<ByteBuffer> parts, Duration pause, boolean ends, Duration timeout) implements Flow.Publisher<ByteBuffer> {

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            Semaphore demand = new Semaphore(0);
            AtomicBoolean cancelled = new AtomicBoolean();
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    demand.release((int) Math.min(n, parts.size() + 1));
                }

                @Override
                public void cancel() {
                    cancelled.set(true);
                    demand.release();
                }
            });
            Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < parts.size(); i++) {
                        if (i > 0) {
                            Thread.sleep(pause);
                        }
                        if (!demand.tryAcquire(timeout.toMillis(), TimeUnit.MILLISECONDS) || cancelled.get()) {
                            return;
                        }
                        subscriber.onNext(parts.get(i).duplicate());
                    }
                    if (ends) {
                        subscriber.onComplete();
                    }
                } catch (InterruptedException interrupted) {
                    subscriber.onError(interrupted);
                }
            });
        }
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "the JDK's HttpClient over HTTP/2";
    }
}
