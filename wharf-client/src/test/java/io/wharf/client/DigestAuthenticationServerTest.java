package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;

import io.wharf.client.auth.BasicAuthentication;
import io.wharf.client.auth.DigestAuthentication;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Digest against an independent server: the Python server of {@link DigestServer}, written
 * from RFC 7616 (Wharf's server has no Digest). MD5 and SHA-256, the stronger of two offered,
 * nonce counts on preemptive reuse, a stale nonce, wrong credentials, RFC 2069.
 */
@Timeout(60)
class DigestAuthenticationServerTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private DigestServer server;
    private HttpClient client;
    private AuthenticationStore store;

    private void start(String password) throws Exception {
        server = loopback.digestServer();
        client = loopback.client();
        store = client.getAuthenticationStore();
        store.addAuthentication(new DigestAuthentication(URI.create(server.uri("/")), "wharf-test", "ann", password));
    }

    private String stats() throws Exception {
        return client.GET(server.uri("/stats")).getContentAsString();
    }

    @Test
    void md5AndSha256AreAnsweredThenReusedWithACountedNonce() throws Exception {
        start("s3cret");
        assertEquals("ok ann MD5 nc=00000001 /md5/a", client.GET(server.uri("/md5/a")).getContentAsString());
        assertEquals("ok ann MD5 nc=00000002 /md5/b", client.GET(server.uri("/md5/b")).getContentAsString(),
                "the kept answer goes first, with the next nonce count");
        assertEquals("ok ann MD5 nc=00000003 /md5/c?q=1", client.GET(server.uri("/md5/c?q=1")).getContentAsString());
        assertEquals("challenges=1 stale=0 ok=3 replays=0", stats());

        // The kept MD5 answer covers the whole server: /sha256 refuses it, and is answered in turn.
        assertEquals("ok ann SHA-256 nc=00000001 /sha256/a", client.GET(server.uri("/sha256/a")).getContentAsString());
        assertEquals("ok ann SHA-256 nc=00000002 /sha256/b", client.GET(server.uri("/sha256/b")).getContentAsString());
        ContentResponse posted = client.POST(server.uri("/sha256/form")).content(RequestContent.of("x=1")).send();
        assertEquals("ok ann SHA-256 nc=00000003 /sha256/form body=x=1", posted.getContentAsString());
    }

    @Test
    void theStrongerOfTwoChallengesIsAnswered() throws Exception {
        start("s3cret");
        store.addAuthentication(new BasicAuthentication(URI.create(server.uri("/")), "wharf-test", "ann", "s3cret"));
        assertEquals("ok ann SHA-256 nc=00000001 /both/x", client.GET(server.uri("/both/x")).getContentAsString());
    }

    @Test
    void aStaleNonceIsAnsweredOnceMoreWithTheNewOne() throws Exception {
        start("s3cret");
        assertEquals(200, client.GET(server.uri("/sha256/a")).getStatus());
        client.GET(server.uri("/expire"));
        ContentResponse response = client.GET(server.uri("/sha256/b"));
        assertEquals("ok ann SHA-256 nc=00000001 /sha256/b", response.getContentAsString());
        // /sha256/a: challenged once; /sha256/b: the kept answer refused as stale, answered with the new nonce.
        assertEquals("challenges=2 stale=1 ok=2 replays=0", stats());
    }

    @Test
    void wrongCredentialsEndInThe401AfterOneAnswer() throws Exception {
        start("not the password");
        ContentResponse response = client.GET(server.uri("/sha256/a"));
        assertEquals(401, response.getStatus());
        assertTrue(response.getHeaders().get("WWW-Authenticate").startsWith("Digest realm=\"wharf-test\""));
        assertEquals("challenges=2 stale=0 ok=0 replays=0", stats());
    }

    @Test
    void anRfc2069ServerWithoutQopIsAnswered() throws Exception {
        start("s3cret");
        assertEquals("ok ann MD5 nc= /legacy/a", client.GET(server.uri("/legacy/a")).getContentAsString());
    }
}
