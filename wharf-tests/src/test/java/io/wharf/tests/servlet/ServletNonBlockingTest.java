package io.wharf.tests.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Non-blocking I/O (Servlet 6.1 §3.7 and §5.7) compared between the containers, over HTTP/1.1
 * (raw, over TLS) and HTTP/2 (the JDK's client, h2 over TLS), on {@link NonBlockingApplication}:
 * a {@code ReadListener} reading a 1 MiB body and one sent slowly in parts, so that
 * {@code onDataAvailable} runs more than once; a 1 MiB body echoed back and one written by a
 * {@code WriteListener} while {@code isReady}; {@code onError} when the client goes away in the
 * middle of the body (closes the connection, or over HTTP/2 resets the stream), seen through the
 * side channel {@code /nb/events}; and the
 * IllegalStateException of a second listener, or of one set outside async processing, by class.
 */
class ServletNonBlockingTest {

    private static final int MIB = 1024 * 1024;

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new NonBlockingApplication(),
        Deployment.NONE.withTls(new Tls(Tls.ClientCertificates.NONE, true, null)));

    private static Http2Client client;
    private static Differential h2;

    @BeforeAll
    static void startClient() throws Exception {
        client = containers.http2Client();
        h2 = containers.over(client);
    }

    /** @return a POST of {@code target} with {@code body} of {@code length} bytes, in the parts {@code body} has ({@code {pause}}) */
    private static String post(String target, int length, String body) {
        return "POST " + target + " HTTP/1.1\nHost: {host}\nContent-Type: application/octet-stream\nContent-Length: " + length
            + "\nConnection: close\n\n" + body;
    }

    /** @return {@code length} bytes of text (no line breaks, which the request's text would turn into CRLF) */
    private static String bytes(int length, char first) {
        char[] text = new char[length];
        for (int i = 0; i < length; i++) {
            text[i] = (char) (first + i % 26);
        }
        return new String(text);
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"HTTP/1.1", "HTTP/2"})
    void aLargeBodyIsRead(String protocol) {
        over(protocol).check(post("/ctx/nb/read?id=large-" + protocol, MIB, bytes(MIB, 'a')));
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"HTTP/1.1", "HTTP/2"})
    void aBodySentSlowlyIsReadInManyCalls(String protocol) {
        String part = bytes(1000, 'A');
        String body = String.join(Differential.PAUSE_MARK, Collections.nCopies(10, part));
        over(protocol).check(post("/ctx/nb/read?id=slow-" + protocol + "&calls", 10 * 1000, Differential.PAUSE_MARK + body));
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"HTTP/1.1", "HTTP/2"})
    void aLargeBodyIsEchoed(String protocol) {
        over(protocol).check(post("/ctx/nb/echo?id=echo-" + protocol, MIB, bytes(MIB, 'k')));
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"HTTP/1.1", "HTTP/2"})
    void aLargeBodyIsWrittenWhileReady(String protocol) {
        over(protocol).get("/ctx/nb/write?size=" + MIB);
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"HTTP/1.1", "HTTP/2"})
    void aListenerOutsideAsyncIsRefused(String protocol) {
        over(protocol).get("/ctx/nb/read-without-async?" + protocol);
        over(protocol).get("/ctx/nb/write-without-async?" + protocol);
    }

    @ParameterizedTest(name = "over {0}")
    @ValueSource(strings = {"HTTP/1.1", "HTTP/2"})
    void aSecondListenerIsRefused(String protocol) {
        Differential differential = over(protocol);
        differential.check(post("/ctx/nb/read-twice?id=read-twice-" + protocol, 5, "hello"));
        differential.get("/ctx/nb/events?id=read-twice-" + protocol);
        differential.get("/ctx/nb/write-twice?id=write-twice-" + protocol);
        differential.get("/ctx/nb/events?id=write-twice-" + protocol);
    }

    /** Over HTTP/1.1 the client closes the connection in the middle of the body, once the servlet has read its start. */
    @Test
    void aClientGoneInTheMiddleOfTheBodyIsAnError() throws Exception {
        RawHttpClient raw = new RawHttpClient(Differential.TIMEOUT, containers.certificates().client(null));
        containers.forEachPeer((peer, base) -> {
            String request = post("/ctx/nb/read?id=gone", 100_000, bytes(1000, 'a')).replace("{host}", base.getAuthority())
                .replace("\n", "\r\n");
            try (Socket socket = raw.connect(base)) {
                OutputStream out = socket.getOutputStream();
                out.write(request.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                awaitRead(raw, base, "gone");
            }
        });
        containers.get("/ctx/nb/events?id=gone");
    }

    /** Over HTTP/2 the client resets the stream in the middle of the body, once the servlet has read its start. */
    @Test
    void aStreamResetInTheMiddleOfTheBodyIsAnError() {
        containers.forEachPeer((peer, base) -> {
            CompletableFuture<?> unfinished = client.startUnfinished(base,
                post("/ctx/nb/read?id=reset", 100_000, bytes(1000, 'a')).replace("\n", "\r\n"), 100_000);
            awaitRead(client, base, "reset");
            unfinished.cancel(true);
        });
        h2.get("/ctx/nb/events?id=reset");
    }

    /** Waits (at most the side channel's wait) until the servlet of the request {@code id} at {@code base} has read the start of its body. */
    private static void awaitRead(PeerClient client, URI base, String id) throws IOException {
        RawResponse seen = client.exchange(base, Differential.request("GET", "/ctx/nb/events?id=" + id + "&until=onDataAvailable")
            .replace("{host}", base.getAuthority()).replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        if (!seen.bodyText().startsWith("onDataAvailable")) {
            throw new AssertionError("the servlet did not read the start of the body: " + seen.bodyText());
        }
    }

    private static Differential over(String protocol) {
        return protocol.equals("HTTP/2") ? h2 : containers;
    }
}
