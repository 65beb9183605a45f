package io.wharf.client.internal.auth;

import java.util.ArrayList;
import java.util.List;

import io.wharf.client.Challenge;
import io.wharf.http.AuthField;

/**
 * Reads the challenges of {@code WWW-Authenticate} fields (RFC 9110 section 11.6.1) with
 * wharf-http's {@link AuthField}, the reader the server's login also uses, as the client's
 * {@link Challenge}s. Never throws; static and stateless; any thread.
 */
public final class ChallengeParser {

    private ChallengeParser() {
    }

    /** @return the challenges of the fields, in order */
    public static List<Challenge> parse(List<String> fields) {
        List<Challenge> challenges = new ArrayList<>(2);
        for (AuthField field : AuthField.parse(fields)) {
            challenges.add(new Challenge(field.scheme(), field.token68(), field.parameters()));
        }
        return challenges;
    }
}
