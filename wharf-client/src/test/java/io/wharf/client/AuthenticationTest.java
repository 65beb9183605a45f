package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import io.wharf.client.auth.AbstractAuthentication;
import io.wharf.client.auth.BasicAuthentication;
import io.wharf.http.HttpHeader;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 401 challenges answered from the authentication store against Wharf's server: Basic once,
 * then preemptively; no endless 401s; kept answers forgotten when refused; content sent again;
 * a scheme of the application's own; hostile challenges.
 */
@Timeout(30)
class AuthenticationTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** The Authorization field of each request the server got ("-" for none), with its path. */
    private final List<String> received = new CopyOnWriteArrayList<>();
    private volatile String password = "secret";
    /** The WWW-Authenticate fields of a 401. */
    private volatile List<String> challenges = List.of("Basic realm=\"shop\"");
    private TestServer server;
    private HttpClient client;
    private AuthenticationStore store;

    /** /private/** needs "ann" and {@link #password} (or the token "Token abc"); anything else is open. */
    private void start() throws Exception {
        server = loopback.server(Handler.of((request, response, callback) -> {
            String path = request.getHttpURI().getPath();
            String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
            received.add(path + " " + (authorization == null ? "-" : authorization));
            boolean open = !path.startsWith("/private");
            String basic = "Basic " + Base64.getEncoder().encodeToString(("ann:" + password).getBytes(StandardCharsets.UTF_8));
            if (open || basic.equals(authorization) || "Token abc".equals(authorization)) {
                String content = Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 16);
                Response.write(response, true, "welcome " + path + (content.isEmpty() ? "" : " " + content), callback);
                return true;
            }
            response.setStatus(401);
            for (String challenge : challenges) {
                response.getHeaders().add(HttpHeader.WWW_AUTHENTICATE, challenge);
            }
            Response.write(response, true, "who are you?", callback);
            return true;
        }));
        client = loopback.client();
        store = client.getAuthenticationStore();
    }

    private URI uri(String path) {
        return URI.create(server.uri(path));
    }

    private String basic(String user, String secret) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + secret).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aChallengeIsAnsweredOnceThenTheAnswerGoesFirst() throws Exception {
        start();
        store.addAuthentication(new BasicAuthentication(uri("/private"), "shop", "ann", "secret"));
        ContentResponse first = client.GET(server.uri("/private/a"));
        assertEquals(200, first.getStatus());
        assertEquals("welcome /private/a", first.getContentAsString());
        assertEquals(List.of("/private/a -", "/private/a " + basic("ann", "secret")), received);

        received.clear();
        assertEquals(200, client.GET(server.uri("/private/b/c")).getStatus());
        assertEquals(List.of("/private/b/c " + basic("ann", "secret")), received, "sent preemptively");

        received.clear();
        assertEquals(200, client.GET(server.uri("/open")).getStatus());
        assertEquals(List.of("/open -"), received, "nothing outside the prefix");
    }

    @Test
    void wrongCredentialsAreTriedOnceAndTheApplicationGetsThe401() throws Exception {
        start();
        store.addAuthentication(new BasicAuthentication(uri("/"), BasicAuthentication.ANY_REALM, "ann", "wrong"));
        ContentResponse response = client.GET(server.uri("/private/x"));
        assertEquals(401, response.getStatus());
        assertEquals("Basic realm=\"shop\"", response.getHeaders().get(HttpHeader.WWW_AUTHENTICATE));
        assertEquals("who are you?", response.getContentAsString());
        assertEquals(2, received.size(), "one answer, no loop: " + received);
        assertNull(store.findAuthenticationResult(uri("/private/x")), "a refused answer is not kept");
    }

    @Test
    void withoutMatchingCredentialsThe401IsFinal() throws Exception {
        start();
        assertEquals(401, client.GET(server.uri("/private/x")).getStatus());
        store.addAuthentication(new BasicAuthentication(uri("/"), "another realm", "ann", "secret"));
        assertEquals(401, client.GET(server.uri("/private/x")).getStatus());
        store.addAuthentication(new BasicAuthentication(uri("/elsewhere"), "shop", "ann", "secret"));
        assertEquals(401, client.GET(server.uri("/private/x")).getStatus());
        assertEquals(3, received.size(), received::toString);
    }

    @Test
    void theApplicationsOwnAuthorizationIsNotAnsweredFor() throws Exception {
        start();
        store.addAuthentication(new BasicAuthentication(uri("/"), "shop", "ann", "secret"));
        ContentResponse response = client.newRequest(server.uri("/private/x")).header("Authorization", basic("ann", "nope")).send();
        assertEquals(401, response.getStatus());
        assertEquals(List.of("/private/x " + basic("ann", "nope")), received);
    }

    @Test
    void aKeptAnswerThatIsRefusedIsForgottenAndTheChallengeAnswered() throws Exception {
        start();
        BasicAuthentication old = new BasicAuthentication(uri("/private"), "shop", "ann", "secret");
        store.addAuthentication(old);
        client.GET(server.uri("/private/a"));
        password = "changed";
        store.removeAuthentication(old);
        store.addAuthentication(new BasicAuthentication(uri("/private"), "shop", "ann", "changed"));
        received.clear();
        assertEquals(200, client.GET(server.uri("/private/b")).getStatus());
        assertEquals(List.of("/private/b " + basic("ann", "secret"), "/private/b " + basic("ann", "changed")), received);
        received.clear();
        client.GET(server.uri("/private/c"));
        assertEquals(List.of("/private/c " + basic("ann", "changed")), received);
    }

    @Test
    void preemptiveCredentialsGoFromTheFirstRequest() throws Exception {
        start();
        store.addAuthenticationResult(BasicAuthentication.preemptive(uri("/private"), "ann", "secret"));
        assertEquals(200, client.GET(server.uri("/private/x")).getStatus());
        assertEquals(List.of("/private/x " + basic("ann", "secret")), received);
    }

    @Test
    void theContentIsSentAgainWithTheAnswerUnlessItIsAStream() throws Exception {
        start();
        store.addAuthentication(new BasicAuthentication(uri("/"), "shop", "ann", "secret"));
        ContentResponse posted = client.POST(server.uri("/private/form")).content(RequestContent.of("a=1")).send();
        assertEquals("welcome /private/form a=1", posted.getContentAsString());

        store.clearAuthenticationResults();
        ContentResponse continued = client.POST(server.uri("/private/form")).header("Expect", "100-continue")
                .content(RequestContent.of("b=2")).send();
        assertEquals("welcome /private/form b=2", continued.getContentAsString(),
                "a 401 instead of 100 Continue is answered, and the content follows the 100 of the next request");

        store.clearAuthenticationResults();
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.POST(server.uri("/private/stream"))
                .content(RequestContent.of(new ByteArrayInputStream("c=3".getBytes(StandardCharsets.US_ASCII)))).send());
        IOException cause = assertInstanceOf(IOException.class, failure.getCause());
        assertTrue(cause.getMessage().startsWith("cannot answer the Basic challenge of POST " + server.uri("/private/stream")),
                cause.getMessage());
        assertTrue(cause.getMessage().endsWith("is read as it is sent and cannot be sent again"), cause.getMessage());
    }

    @Test
    void anApplicationMayAnswerItsOwnScheme() throws Exception {
        start();
        challenges = List.of("Basic realm=\"shop\"", "Token realm=\"api\", scope=\"read\"");
        List<String> scopes = new CopyOnWriteArrayList<>();
        store.addAuthentication(new AbstractAuthentication("Token", uri("/"), "api") {
            @Override
            public Result authenticate(io.wharf.client.Request request, io.wharf.client.Response response, Challenge challenge) {
                scopes.add(challenge.parameter("scope"));
                URI prefix = getURI();
                return new Result() {
                    @Override
                    public URI getURI() {
                        return prefix;
                    }

                    @Override
                    public void apply(io.wharf.client.Request next) {
                        next.putHeader("Authorization", "Token abc");
                    }
                };
            }
        });
        assertEquals(200, client.GET(server.uri("/private/x")).getStatus());
        assertEquals(List.of("read"), scopes);
        assertEquals(List.of("/private/x -", "/private/x Token abc"), received);
    }

    @Test
    void anAuthenticationThatThrowsFailsNothingButItsOwnAnswer() throws Exception {
        start();
        challenges = List.of("Token realm=\"api\"");
        RuntimeException broken = new IllegalStateException("broken token source");
        store.addAuthentication(new AbstractAuthentication("Token", uri("/"), "api") {
            @Override
            public Result authenticate(io.wharf.client.Request request, io.wharf.client.Response response, Challenge challenge) {
                throw broken;
            }
        });
        assertEquals(401, client.GET(server.uri("/private/x")).getStatus(), "not answered: the 401 is final");

        challenges = List.of("Basic realm=\"shop\"");
        store.addAuthentication(new AbstractAuthentication("Basic", uri("/"), "shop") {
            @Override
            public Result authenticate(io.wharf.client.Request request, io.wharf.client.Response response, Challenge challenge) {
                return new Result() {
                    @Override
                    public URI getURI() {
                        return uri("/");
                    }

                    @Override
                    public void apply(io.wharf.client.Request next) {
                        throw broken;
                    }
                };
            }
        });
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri("/private/y")));
        assertEquals(broken, failure.getCause(), "an answer that throws fails the request with what it threw");
    }

    @Test
    void hostileChallengesAreNotAnswered() throws Exception {
        start();
        store.addAuthentication(new BasicAuthentication(uri("/"), BasicAuthentication.ANY_REALM, "ann", "secret"));
        for (List<String> hostile : List.<List<String>>of(
                List.of("Basic realm=\"unterminated"),
                List.of("=", ",,,, ,", "Basic realm=a realm=b"),
                List.of("Digest realm=\"shop\", nonce=\"" + "n".repeat(300) + "\", algorithm=MD5-evil"),
                List.of())) {
            challenges = hostile;
            received.clear();
            ContentResponse response = client.GET(server.uri("/private/x"));
            assertEquals(401, response.getStatus(), hostile::toString);
            assertEquals(1, received.size(), hostile::toString);
        }
        challenges = List.of("Newauth realm=\"apps\", type=1", "Basic realm=\"shop\"");
        assertEquals(200, client.GET(server.uri("/private/x")).getStatus(), "the one challenge it can answer");
    }
}
