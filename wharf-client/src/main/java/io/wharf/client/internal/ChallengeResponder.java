package io.wharf.client.internal;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.wharf.client.Authentication;
import io.wharf.client.AuthenticationStore;
import io.wharf.client.Challenge;
import io.wharf.client.Response;
import io.wharf.client.internal.auth.ChallengeParser;
import io.wharf.http.HttpHeader;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authentication side of a {@link Conversation}: applies kept results to each hop before
 * it is sent, answers a 401 from the {@link AuthenticationStore}, and keeps or forgets results
 * by what the server said to them.
 *
 * <ul>
 * <li>A hop without an {@code Authorization} field gets the kept result whose URI covers it.
 *     If it is answered 401, that result is forgotten and the challenge answered.</li>
 * <li>A 401 is answered once: the challenges are read, the strongest first (Digest with a
 *     SHA algorithm, Digest, other schemes, Basic last), and the first one with matching
 *     credentials that can be answered is; the request goes again with the answer. If that is
 *     answered 401 too, the 401 is final — unless it says {@code stale=true} (right
 *     credentials, old nonce), which earns one more answer per conversation.</li>
 * <li>An answer that was not refused is kept, for requests under its URI.</li>
 * <li>A request whose application set its own {@code Authorization} is never answered for.</li>
 * </ul>
 *
 * <p><b>Threads.</b> Used by the conversation's hops one after the other (see
 * {@link Conversation}); the store is thread-safe. <b>Buffers.</b> None.
 */
final class ChallengeResponder {

    private static final Logger LOG = LoggerFactory.getLogger(ChallengeResponder.class);

    private final Conversation conversation;
    private final AuthenticationStore store;
    /** The result the hop in flight carries, or null. */
    private Authentication.Result sent;
    /** Whether the hop in flight answers a challenge (else its result, if any, was kept). */
    private boolean answering;
    private boolean staleAnswered;

    ChallengeResponder(Conversation conversation, AuthenticationStore store) {
        this.conversation = conversation;
        this.store = store;
    }

    /** Before a hop is sent: applies the kept result for its URI when it has no credentials. */
    void preempt(URI uri, HttpRequest hop) {
        sent = null;
        answering = false;
        if (hop.getHeaders().contains(HttpHeader.AUTHORIZATION)) {
            return;
        }
        Authentication.Result kept = store.findAuthenticationResult(uri);
        if (kept != null) {
            kept.apply(hop);
            sent = kept;
        }
    }

    /** The head of the hop's response arrived with {@code status}: keeps an answer that worked, forgets a kept result refused. */
    void settle(int status) {
        Authentication.Result result = sent;
        if (result == null) {
            return;
        }
        if (status != 401) {
            if (answering) {
                store.addAuthenticationResult(result);
            }
        } else if (!answering) {
            store.removeAuthenticationResult(result);
        }
    }

    /**
     * @return the hop answering the 401's challenge, or null when the 401 goes to the application
     * @throws IOException when the answer cannot carry the request's content again
     */
    HttpRequest answer(HttpRequest hop, Response response) throws IOException {
        if (!store.hasAuthentications() || conversation.applicationAuthorizes()) {
            return null;
        }
        boolean again = answering;
        if (again && staleAnswered) {
            return null;
        }
        List<Challenge> challenges = new ArrayList<>(ChallengeParser.parse(response.getHeaders().getValuesList(HttpHeader.WWW_AUTHENTICATE)));
        challenges.sort(Comparator.comparingInt(ChallengeResponder::rank));
        for (Challenge challenge : challenges) {
            if (again && !challenge.isStale()) {
                continue;
            }
            Authentication authentication = store.findAuthentication(challenge.scheme(), hop.getURI(), challenge.realm());
            if (authentication == null) {
                continue;
            }
            Authentication.Result result;
            try {
                result = authentication.authenticate(hop, response, challenge);
            } catch (RuntimeException x) {
                LOG.warn("{} failed to answer {} for {}", authentication, challenge, hop, x);
                continue;
            }
            if (result == null) {
                continue;
            }
            HttpRequest next = conversation.newHop(hop, hop.getURI(), hop.getMethod(), true,
                    "answer the " + challenge.scheme() + " challenge");
            result.apply(next);
            sent = result;
            answering = true;
            staleAnswered |= again;
            return next;
        }
        return null;
    }

    /** Digest with a SHA algorithm first, then Digest, then other schemes, Basic (clear text) last. */
    private static int rank(Challenge challenge) {
        if (challenge.is("Digest")) {
            String algorithm = challenge.parameter("algorithm");
            return algorithm != null && algorithm.toUpperCase(Locale.ROOT).startsWith("SHA-") ? 0 : 1;
        }
        return challenge.is("Basic") ? 3 : 2;
    }
}
