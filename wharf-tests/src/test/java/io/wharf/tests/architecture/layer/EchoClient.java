package io.wharf.tests.architecture.layer;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.wharf.client.HttpClient;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.client.ClientUpgradeRequest;
import io.wharf.websocket.client.WebSocketClient;

/**
 * A WebSocket client's session over HTTP/1.1 with an {@link EchoServer}: given the server's
 * {@code ws://} URI, it connects, sends three text messages one after the other, closes with
 * 1000, then asks for a session over HTTP/2, and returns what it received and what it was told,
 * in that order: the three answers, {@code "closed CODE"}, then the refusal's message (or
 * {@code "HTTP/2 was not refused"}). Every wait is bounded (10 s).
 * {@link io.wharf.tests.architecture.ModulePathTest} runs it in a module layer of
 * {@code io.wharf.websocket.client} and what it requires, as {@link EchoServer} is run, and on a
 * class path of those modules' classes: without {@code wharf-http2} or the server either way.
 */
public final class EchoClient implements Function<URI, List<String>> {

    @Override
    public List<String> apply(URI uri) {
        HttpClient http = new HttpClient();
        try {
            http.start();
            try {
                return talk(new WebSocketClient(http), uri);
            } finally {
                http.stop();
            }
        } catch (Exception x) {
            throw new IllegalStateException("the WebSocket client failed: " + x, x);
        }
    }

    private static List<String> talk(WebSocketClient client, URI uri) throws Exception {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        Session session = client.connect(new WebSocketListener() {
            @Override
            public void onText(String text) {
                received.add(text);
            }

            @Override
            public void onClose(int code, String reason) {
                closed.complete(code);
            }
        }, uri).get(10, TimeUnit.SECONDS);
        List<String> told = new ArrayList<>();
        for (String message : List.of("one", "two", "three")) {
            session.sendText(message).get(10, TimeUnit.SECONDS);
            told.add(received.poll(10, TimeUnit.SECONDS));
        }
        session.close(1000, "done");
        told.add("closed " + closed.get(10, TimeUnit.SECONDS));
        try {
            client.connect(new WebSocketListener() { }, uri, ClientUpgradeRequest.defaults().withHttp2(true))
                .cancel(true);
            told.add("HTTP/2 was not refused");
        } catch (IllegalStateException refused) {
            told.add(refused.getMessage());
        }
        return told;
    }
}
