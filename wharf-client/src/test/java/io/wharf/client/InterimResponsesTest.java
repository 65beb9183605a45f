package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import io.wharf.http.HttpFields;
import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** 1xx interim responses: 100 Continue before the content of an Expect: 100-continue request, 103 Early Hints. */
@Timeout(30)
class InterimResponsesTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private TestServer server;
    private ScriptedServer scripted;
    private HttpClient client;
    private final List<String> interim = new CopyOnWriteArrayList<>();

    private void startClient() throws Exception {
        client = loopback.client();
    }

    private final Response.Listener interimRecorder = new Response.Listener() {
        @Override
        public void onInformational(Response response) {
            interim.add(response.getStatus() + " " + response.getHeaders().get("Link"));
        }
    };

    @Test
    void expectContinueSendsTheContentAfterThe100() throws Exception {
        server = loopback.server(Handler.of((request, response, callback) -> {
            String content = io.wharf.server.Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 16);
            io.wharf.server.Response.write(response, true, "got " + content, callback);
            return true;
        }));
        startClient();
        ContentResponse response = client.POST(server.uri("/upload")).header("Expect", "100-continue")
                .content(RequestContent.of("the body")).onResponse(interimRecorder).send();
        assertEquals("got the body", response.getContentAsString());
        assertEquals(List.of("100 null"), interim);
        // The connection is reused afterwards.
        assertEquals("got again", client.POST(server.uri("/upload")).content(RequestContent.of("again")).send().getContentAsString());
    }

    @Test
    void aFinalAnswerInsteadOf100LeavesTheContentUnsent() throws Exception {
        scripted = loopback.scripted(peer -> {
            peer.readHead();
            peer.write("HTTP/1.1 401 Unauthorized\r\nContent-Length: 4\r\n\r\nnope");
            peer.readHead();
        });
        startClient();
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.POST(scripted.uri("/"))
                .header("Expect", "100-continue").content(RequestContent.of("secret")).send());
        assertTrue(failure.getCause().getMessage().contains("answered 401 instead of 100 Continue"), failure.getCause().getMessage());
        assertFalse(scripted.heads.get(0).contains("secret"));
        assertEquals(0, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void earlyHintsAreReportedBeforeTheResponse() throws Exception {
        server = loopback.server(Handler.of((request, response, callback) -> {
            response.writeInterim(103, HttpFields.build().add("Link", "</style.css>; rel=preload"),
                    io.wharf.util.Callback.from(
                            () -> io.wharf.server.Response.write(response, true, "page", callback), callback::failed));
            return true;
        }));
        startClient();
        List<String> events = new CopyOnWriteArrayList<>();
        ContentResponse response = client.newRequest(server.uri("/page")).onResponse(new Response.Listener() {
            @Override
            public void onInformational(Response hint) {
                events.add("informational " + hint.getStatus() + " " + hint.getHeaders().get("Link"));
            }

            @Override
            public void onBegin(Response begun) {
                events.add("begin " + begun.getStatus());
            }
        }).send();
        assertEquals("page", response.getContentAsString());
        assertEquals(List.of("informational 103 </style.css>; rel=preload", "begin 200"), events);
        assertFalse(response.getHeaders().contains("Link"), "the hint's fields are not the response's");
    }

    @Test
    void interimResponsesFromARawServer() throws Exception {
        scripted = loopback.scripted(peer -> {
            while (peer.readHead() != null) {
                peer.write("HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.js>\r\n\r\n"
                        + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            }
        });
        startClient();
        assertEquals("ok", client.newRequest(scripted.uri("/")).onResponse(interimRecorder).send().getContentAsString());
        assertEquals("ok", client.newRequest(scripted.uri("/")).onResponse(interimRecorder).send().getContentAsString());
        assertEquals(List.of("102 null", "103 </a.js>", "102 null", "103 </a.js>"), interim);
        assertEquals(1, scripted.accepted());
    }
}
