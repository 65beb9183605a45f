package io.wharf.tests.servlet;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import javax.net.ssl.SSLContext;

/**
 * The differential's requests over HTTP/2 with the JDK's {@link HttpClient} (h2 over TLS, by
 * ALPN), a client Wharf did not write: each raw HTTP/1.1 request's method, target, header
 * fields and body are sent as an HTTP/2 request, and the response is read back as a
 * {@link RawResponse} of version {@code HTTP/2}. The fields HTTP/2 has no place for or the
 * client sets itself (Host becomes {@code :authority}; Connection, Content-Length, Expect,
 * Transfer-Encoding, Upgrade) are left out; a response that did not come over HTTP/2 is a
 * failure. The client does not show trailers, so they are not compared.
 *
 * <p>Made and closed by a test class; one request at a time on the test's thread.
 */
final class Http2Client implements PeerClient, AutoCloseable {

    /** Fields of an HTTP/1.1 request that HTTP/2 does not carry or that the client sets itself. */
    private static final List<String> LEFT_OUT = List.of("host", "connection", "content-length", "expect", "transfer-encoding", "upgrade");

    private final HttpClient client;
    private final Duration timeout;

    /** @param tls what the client trusts: the peers' certificate */
    Http2Client(SSLContext tls, Duration timeout) {
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(tls).connectTimeout(timeout).build();
        this.timeout = timeout;
    }

    @Override
    public RawResponse exchange(URI base, byte[] request) throws IOException {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IllegalArgumentException("a request without the empty line that ends its header: " + text);
        }
        List<String> lines = Arrays.asList(text.substring(0, end).split("\r\n"));
        String[] requestLine = lines.getFirst().split(" ");
        byte[] body = Arrays.copyOfRange(request, end + 4, request.length);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + requestLine[1])).timeout(timeout)
            .method(requestLine[0], body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        for (String line : lines.subList(1, lines.size())) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).strip();
            if (!LEFT_OUT.contains(name.toLowerCase(Locale.ROOT))) {
                builder.header(name, line.substring(colon + 1).strip());
            }
        }
        HttpResponse<byte[]> response;
        try {
            response = client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for " + lines.getFirst());
        }
        if (response.version() != HttpClient.Version.HTTP_2) {
            throw new IOException("answered over " + response.version() + ", not HTTP/2");
        }
        HeaderFields headers = new HeaderFields();
        response.headers().map().forEach((name, values) -> values.forEach(value -> headers.add(name, value)));
        return new RawResponse("HTTP/2", response.statusCode(), "", headers, response.body(), new HeaderFields());
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
