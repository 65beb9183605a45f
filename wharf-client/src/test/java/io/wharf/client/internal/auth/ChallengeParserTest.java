package io.wharf.client.internal.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.wharf.client.Challenge;

import org.junit.jupiter.api.Test;

/**
 * The client's challenges as wharf-http's {@code AuthField} reads them (its own tests, in
 * {@code AuthFieldTest}, cover the syntax and hostile fields): what a {@link Challenge} answers.
 */
class ChallengeParserTest {

    @Test
    void challengesAnswerTheirSchemeRealmParametersAndStaleness() {
        List<Challenge> challenges = ChallengeParser.parse(List.of(
            "Digest realm=\"shop\", qop=\"auth\",NONCE=abc, Stale=TRUE, Negotiate a874==", "Basic realm=simple"));
        assertEquals(List.of("Digest", "Negotiate", "Basic"), challenges.stream().map(Challenge::scheme).toList());
        Challenge digest = challenges.get(0);
        assertEquals("shop", digest.realm());
        assertEquals("abc", digest.parameter("Nonce"), "parameters are found in any case");
        assertTrue(digest.isStale());
        assertEquals("a874==", challenges.get(1).token68());
        assertNull(challenges.get(2).token68());
        assertEquals("simple", challenges.get(2).realm());
    }
}
