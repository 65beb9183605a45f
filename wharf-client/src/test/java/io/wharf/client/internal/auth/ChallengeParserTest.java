package io.wharf.client.internal.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import io.wharf.client.Challenge;

import org.junit.jupiter.api.Test;

/** WWW-Authenticate as RFC 9110 section 11.6.1 writes it, several challenges per field, and hostile fields. */
class ChallengeParserTest {

    private static List<Challenge> parse(String... fields) {
        return ChallengeParser.parse(List.of(fields));
    }

    @Test
    void oneChallengeWithParameters() {
        List<Challenge> challenges = parse("Digest realm=\"shop, \\\"inc\\\"\", qop=\"auth,auth-int\",nonce=abc ,  Stale=TRUE");
        assertEquals(1, challenges.size());
        Challenge digest = challenges.get(0);
        assertEquals("Digest", digest.scheme());
        assertEquals("shop, \"inc\"", digest.realm());
        assertEquals("auth,auth-int", digest.parameter("qop"));
        assertEquals("abc", digest.parameter("NONCE"));
        assertTrue(digest.isStale());
    }

    @Test
    void severalChallengesInOneFieldAndAcrossFields() {
        List<Challenge> challenges = parse(
                "Newauth realm=\"apps\", type=1, title=\"Login to \\\"apps\\\"\", Basic realm=\"simple\"",
                "Negotiate, Negotiate a87421000492aa874209af8bc028==, Bearer");
        assertEquals(List.of("Newauth", "Basic", "Negotiate", "Negotiate", "Bearer"),
                challenges.stream().map(Challenge::scheme).toList());
        assertEquals(Map.of("realm", "apps", "type", "1", "title", "Login to \"apps\""), challenges.get(0).parameters());
        assertEquals("simple", challenges.get(1).realm());
        assertNull(challenges.get(2).token68());
        assertEquals("a87421000492aa874209af8bc028==", challenges.get(3).token68());
        assertEquals(Map.of(), challenges.get(4).parameters());
    }

    @Test
    void malformedFieldsKeepWhatCameBefore() {
        assertEquals(List.of("Basic"), parse("Basic realm=\"a\", Digest realm=\"unterminated").stream()
                .map(Challenge::scheme).toList());
        assertEquals(0, parse("=oops").size());
        assertEquals(0, parse("").size());
        assertEquals(0, parse("Basic realm=a realm=b").size(), "a stray token after a value: the challenge is dropped");
        assertEquals(List.of("Basic"), parse("Basic realm=a, Digest realm=b nonce=c").stream().map(Challenge::scheme).toList());
        assertEquals("first", parse("Basic realm=first, realm=second").get(0).realm(), "the first of a repeated name");
    }

    @Test
    void boundsHold() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            many.append("S").append(i).append(", ");
        }
        assertEquals(ChallengeParser.MAX_CHALLENGES, parse(many.toString()).size());
        StringBuilder parameters = new StringBuilder("Digest ");
        for (int i = 0; i < 100; i++) {
            parameters.append("p").append(i).append("=v, ");
        }
        assertEquals(ChallengeParser.MAX_PARAMETERS, parse(parameters.toString()).get(0).parameters().size());
    }

    @Test
    void randomInputNeverThrows() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String alphabet = "Digest Basic realm=\"\\,= \t abc==/+";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder field = new StringBuilder();
            int length = random.nextInt(50);
            for (int j = 0; j < length; j++) {
                field.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            for (Challenge challenge : parse(field.toString())) {
                assertTrue(!challenge.scheme().isEmpty());
            }
        }
    }
}
