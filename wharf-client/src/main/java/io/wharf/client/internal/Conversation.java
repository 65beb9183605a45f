package io.wharf.client.internal;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.client.Origin;
import io.wharf.client.RequestContent;
import io.wharf.client.Response;
import io.wharf.client.Result;
import io.wharf.client.internal.cookie.CookieHeaders;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.KnownFields;

/**
 * One request of the application and the requests the client sends on its behalf — the
 * redirects it follows, the challenges it answers — each a <em>hop</em>: an
 * {@link HttpRequest} of its own with an exchange of its own, heard by a {@link HopListener}.
 * The application's response listeners hear only the final response.
 *
 * <pre>
 *  send ──► prepare (Accept-Encoding, Cookie, kept Authorization) ──► dispatch hop
 *     hop's head arrives ──► Set-Cookie into the store ──► follow up?
 *        redirect (3xx with Location) or answerable 401 ──► drop the content ──► next hop
 *        otherwise ──► the application hears the head, then the (inflated) content
 * </pre>
 *
 * <p>Each hop starts from the application's own fields. Its {@code Host}, {@code Cookie},
 * {@code Authorization} and {@code Proxy-Authorization} fields are carried only while every
 * hop stayed on the first request's origin (scheme, host, port); the cookies of the store and
 * the credentials of the authentication store are matched again for each hop's URI. The
 * total timeout spans all hops.
 *
 * <p><b>Threads.</b> Hops run one after the other: a hop's events come on its connection's
 * reading thread, and the next hop is dispatched when the previous exchange completes, on the
 * thread that completed it. What one hop decides is published to the next by the exchange's
 * completion. {@link #abortAfter} may come from any thread. <b>Buffers.</b> None; content
 * goes through, or through a {@link ResponseInflater}.
 */
public final class Conversation implements Deadlines.Expirable {

    /** The most content bytes read and dropped from a response that is followed up. */
    static final int MAX_DROPPED_CONTENT = 1024 * 1024;

    private final ClientContext context;
    private final HttpRequest first;
    private final ResponseEvents application;
    private final HttpFields applicationHeaders;
    private final ChallengeResponder challenges;
    private final AtomicReference<Throwable> abortCause = new AtomicReference<>();
    /** "GET http://... → 302 → GET http://...", for messages. */
    private final StringBuilder chain = new StringBuilder();
    /** The hops sent so far: method, URI and cookies. */
    private final Set<String> seen = new HashSet<>();
    private int redirects;
    private boolean onOrigin = true;
    private volatile HttpRequest current;
    private boolean completed;
    /** The listener of the current hop, which knows whether its response asked for a follow-up; guarded by this. */
    private HopListener currentListener;
    /** Whether a total timeout counts (then in {@link ClientContext#deadlines()}). */
    private boolean timed;
    /** The total timeout, in milliseconds, for its message. */
    private long timeoutMillis;
    /** When the total timeout expires, on {@link System#nanoTime()}'s clock. */
    private long deadlineNanos;
    /** Whether the one hop is a response the server pushed: nothing is sent, nothing followed up. */
    private boolean pushed;

    Conversation(ClientContext context, HttpRequest first, List<Response.Listener> listeners) {
        this.context = context;
        this.first = first;
        this.application = new ResponseEvents(listeners);
        this.applicationHeaders = first.getHeaders().asImmutable();
        this.challenges = new ChallengeResponder(this, context.authenticationStore());
    }

    ResponseEvents application() {
        return application;
    }

    ClientContext context() {
        return context;
    }

    /**
     * A response the server pushed, heard as the one hop of a conversation that sends nothing:
     * told like the answer to a request sent (its cookies stored, gzip decoded), never followed up.
     *
     * @return the listener of the pushed exchange
     */
    public static Response.Listener pushed(ClientContext context, HttpRequest promised, Response.Listener listener) {
        Conversation conversation = new Conversation(context, promised, List.of(listener));
        HopListener hop = new HopListener(conversation, promised);
        synchronized (conversation) {
            conversation.pushed = true;
            conversation.current = promised;
            conversation.currentListener = hop;
        }
        return hop;
    }

    /** Sends the first request. On the sending thread. */
    void start() {
        Duration total = first.getTimeout();
        if (total != null) {
            scheduleTimeout(total);
        }
        prepare(first);
        send(first);
    }

    private void scheduleTimeout(Duration total) {
        timeoutMillis = total.toMillis();
        deadlineNanos = System.nanoTime() + total.toNanos();
        try {
            context.deadlines().add(this, context.scheduler());
            timed = true;
        } catch (RejectedExecutionException x) {
            first.abort(x);
        }
    }

    @Override
    public long deadlineNanos() {
        return deadlineNanos;
    }

    @Override
    public void expire() {
        first.abort(new TimeoutException("total timeout of " + timeoutMillis + " ms elapsed for " + first));
    }

    private void send(HttpRequest hop) {
        HopListener listener = new HopListener(this, hop);
        synchronized (this) {
            current = hop;
            currentListener = listener;
        }
        Throwable aborted = abortCause.get();
        if (aborted != null) {
            hop.abort(aborted);
        } else if (hop != first && hop.getContent() != null && !hop.getContent().rewind()) {
            // Rewound when the hop was made, but the previous hop's writer may have failed it
            // since (a final answer instead of 100 Continue): rewound again now that it is done.
            hop.abort(new IOException("the content of " + hop + " could not be rewound to be sent again"));
        }
        hop.dispatch(listener);
    }

    /**
     * The exchange of {@code from} ended, and {@code cause} aborts what follows it: the hop
     * in flight, or the next one before it is sent. Any thread.
     *
     * @return false when the conversation was over or already aborted
     */
    boolean abortAfter(HttpRequest from, Throwable cause) {
        HttpRequest hop;
        synchronized (this) {
            hop = current;
            // When the hop that ended is still the current one, something follows it only if its
            // response asked for a follow-up: a final response is the application's, and an
            // abort racing with its completion aborts nothing.
            if (completed || hop == from && !currentListener.isFollowUp()) {
                return false;
            }
            if (!abortCause.compareAndSet(null, cause)) {
                return false;
            }
        }
        if (hop != from) {
            hop.abort(cause);
        }
        return true;
    }

    // ---- what each hop carries ----

    /** Adds what the client sends unless the request has it: Accept-Encoding, cookies, kept credentials. */
    private void prepare(HttpRequest hop) {
        HttpFields.Mutable headers = hop.headers();
        if (hop.settings().contentDecoding() && !headers.contains(HttpHeader.ACCEPT_ENCODING)) {
            headers.put(KnownFields.ACCEPT_ENCODING_GZIP);
        }
        URI uri = hop.getURI();
        CookieHeaders.addTo(context.cookieStore(), uri, hop.headers());
        challenges.preempt(uri, hop);
    }

    /** @return whether the application set the credentials of the hops still on its origin */
    boolean applicationAuthorizes() {
        return onOrigin && applicationHeaders.contains(HttpHeader.AUTHORIZATION);
    }

    // ---- following up ----

    /**
     * Decides, from the head of {@code response}, whether the conversation goes on with
     * another request. On the reading thread.
     *
     * @return the next hop (prepared, not yet sent), or null when the response is final
     * @throws IOException when the response asks for a follow-up the client refuses
     */
    HttpRequest followUp(HttpRequest hop, Response response) throws IOException {
        synchronized (this) {
            if (pushed) {
                return null;
            }
        }
        int status = response.getStatus();
        challenges.settle(status);
        if (Redirects.isRedirect(status) && first.isFollowRedirects()) {
            Redirects.Target target = Redirects.target(hop.getURI(), hop.getMethod(), response);
            if (target != null) {
                return redirect(hop, response, target);
            }
        }
        if (status == 401) {
            return challenges.answer(hop, response);
        }
        return null;
    }

    private HttpRequest redirect(HttpRequest hop, Response response, Redirects.Target target) throws IOException {
        int status = response.getStatus();
        String step = " → " + status + " → " + target.method() + " " + target.uri();
        if (++redirects > first.getMaxRedirects()) {
            throw new IOException("too many redirects: more than " + first.getMaxRedirects() + " for " + chain + step
                    + " (Request.maxRedirects, HttpClient.setMaxRedirects)");
        }
        HttpRequest next = newHop(hop, target.uri(), target.method(), target.keepContent(),
                "follow the " + status + " redirect to " + target.uri());
        if (chain.isEmpty()) {
            // Until this first redirect, every hop went to the first request's URI.
            remember(first);
        }
        chain.append(" → ").append(status).append(" → ");
        if (!remember(next)) {
            throw new IOException("redirect loop: " + chain + " (the last request was sent before, with the same cookies)");
        }
        return next;
    }

    /** Notes a hop in the chain. @return false when the same request (method, URI, cookies) was sent before */
    private boolean remember(HttpRequest hop) {
        URI uri = hop.getURI();
        chain.append(hop.getMethod()).append(' ').append(uri);
        // Digest credentials differ in every request: whether there are any is what counts.
        return seen.add(hop.getMethod() + " " + uri + " " + hop.getHeaders().get(HttpHeader.COOKIE) + " "
                + hop.getHeaders().contains(HttpHeader.AUTHORIZATION));
    }

    /**
     * @param from the hop followed up
     * @param keepContent whether the content goes again (it must be able to)
     * @param purpose what the hop is for, in messages
     * @return the next hop: the application's fields as they may travel, its method and content, prepared
     * @throws IOException when the content cannot be sent again, or the URI not sent to
     */
    HttpRequest newHop(HttpRequest from, URI uri, String method, boolean keepContent, String purpose) throws IOException {
        HttpRequest hop;
        try {
            hop = from.copyFor(uri);
        } catch (IllegalArgumentException x) {
            throw new IOException("cannot " + purpose + " of " + from + ": " + x.getMessage(), x);
        }
        hop.method(method);
        RequestContent content = keepContent ? from.getContent() : null;
        if (content != null) {
            if (!content.rewind()) {
                throw new IOException("cannot " + purpose + " of " + from + ": its content (" + content
                        + ") is read as it is sent and cannot be sent again");
            }
            hop.content(content);
        }
        if (onOrigin && !sameOrigin(uri)) {
            onOrigin = false;
        }
        HttpFields.Mutable headers = hop.headers();
        for (HttpField field : applicationHeaders) {
            HttpHeader header = field.getHeader();
            if (!onOrigin && (header == HttpHeader.HOST || header == HttpHeader.COOKIE
                    || header == HttpHeader.AUTHORIZATION || header == HttpHeader.PROXY_AUTHORIZATION)) {
                continue;
            }
            if (hop.getContent() == null && describesContent(header)) {
                continue;
            }
            headers.add(field);
        }
        prepare(hop);
        return hop;
    }

    private boolean sameOrigin(URI uri) {
        Origin origin = first.getOrigin();
        Origin other = Origin.of(uri, null);
        return origin.scheme().equals(other.scheme()) && origin.host().equals(other.host()) && origin.port() == other.port();
    }

    private static boolean describesContent(HttpHeader header) {
        return header == HttpHeader.CONTENT_TYPE || header == HttpHeader.CONTENT_LENGTH
                || header == HttpHeader.CONTENT_ENCODING || header == HttpHeader.CONTENT_LANGUAGE
                || header == HttpHeader.CONTENT_LOCATION || header == HttpHeader.TRANSFER_ENCODING
                || header == HttpHeader.EXPECT;
    }

    /**
     * A hop's exchange completed: the next hop goes, or the application hears the end. On the
     * thread that completed the exchange.
     *
     * @param next the hop to send, or null when the conversation ends with {@code result}
     */
    void hopComplete(HttpRequest next, Result result) {
        if (next != null) {
            send(next);
            return;
        }
        synchronized (this) {
            completed = true;
        }
        if (timed) {
            context.deadlines().remove(this);
        }
        application.complete(result);
    }

    @Override
    public String toString() {
        return "Conversation[" + first + ", " + redirects + " redirects]";
    }
}
