package io.wharf.client;

import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpVersion;

/**
 * An HTTP request being built and then sent: made by {@link HttpClient#newRequest}, set up
 * fluently by one thread, then sent once with {@link #send()} (blocking),
 * {@link #sendAsync()} (a future) or {@link #send(Response.Listener)} (events).
 *
 * <pre>{@code
 * ContentResponse response = client.newRequest("http://127.0.0.1:8080/items")
 *     .method(HttpMethod.POST)
 *     .header("Accept", "application/json")
 *     .content(RequestContent.of("{\"name\":\"x\"}", "application/json"))
 *     .timeout(Duration.ofSeconds(5))
 *     .send();
 * }</pre>
 *
 * <p><b>Follow-ups.</b> When the response is a redirect the client follows, or a 401 it answers
 * from its {@link AuthenticationStore}, the client sends another request on
 * this one's behalf (with this one's listeners, which hear its events too); the response
 * listeners hear only the final response. See docs/client.md.
 *
 * <p><b>Threads.</b> Building is for one thread; once sent, only {@link #abort(Throwable)} and
 * the getters may be called, from any thread. Listeners are called on the client's threads
 * (often a selector thread): they must not block, and so must never call {@link #send()}. <b>Timeouts.</b> {@link #timeout} bounds the
 * whole exchange from the send, queueing included; {@link #idleTimeout} bounds each silence
 * of the connection while this exchange is on it. Either ends the exchange with a
 * {@link TimeoutException} naming the timeout and its value.
 */
public interface Request {

    /** @return the method, {@code GET} unless set */
    String getMethod();

    /** Sets the method token, for example {@code "PROPFIND"}. */
    Request method(String method);

    /** Sets the method. */
    default Request method(HttpMethod method) {
        return method(method.asString());
    }

    /** @return the absolute URI, query parameters included */
    URI getURI();

    /** @return the destination's key: scheme, host, port and tag */
    Origin getOrigin();

    /** @return the path, {@code /} when the URI has none */
    String getPath();

    /** @return the raw (encoded) query, or null */
    String getQuery();

    /** Appends a query parameter; name and value are percent-encoded as UTF-8. */
    Request param(String name, String value);

    /** @return the version, HTTP/1.1 unless set */
    HttpVersion getVersion();

    /** Sets the version: HTTP/1.1 or HTTP/1.0. */
    Request version(HttpVersion version);

    /** @return the header fields set so far (Host, User-Agent and framing fields are added when sent) */
    HttpFields getHeaders();

    /** Adds a header field. */
    Request header(String name, String value);

    /** Replaces every field named {@code name} by one with {@code value}; null removes them. */
    Request putHeader(String name, String value);

    /** @return the content, or null when the request has none */
    RequestContent getContent();

    /** Sets the content; its Content-Type is sent unless a Content-Type field is set. */
    Request content(RequestContent content);

    /** @return the total timeout, or null for none (the client's default applies when set) */
    Duration getTimeout();

    /** Bounds the whole exchange, from the send to the end of the response, queueing included. */
    Request timeout(Duration timeout);

    /** @return the idle timeout of this exchange, or null for the client's */
    Duration getIdleTimeout();

    /** Bounds each silence of the connection while this exchange is on it. */
    Request idleTimeout(Duration idleTimeout);

    /** @return whether a 301, 302, 303, 307 or 308 answer is followed; the client's setting unless set */
    boolean isFollowRedirects();

    /**
     * Follows redirects (the default, see {@link HttpClient#setFollowRedirects}), or hands
     * every 3xx answer to the listeners as the final response.
     */
    Request followRedirects(boolean follow);

    /** @return how many redirects this request follows at most; the client's setting unless set */
    int getMaxRedirects();

    /** Bounds the redirects followed; one more fails the request with an IOException naming the chain. */
    Request maxRedirects(int max);

    /** Sets the tag of the origin: requests with different tags never share a connection. */
    Request tag(Object tag);

    /** Sets an attribute that travels with the request, for listeners. */
    Request attribute(String name, Object value);

    /** @return the attributes, unmodifiable */
    Map<String, Object> getAttributes();

    /** Adds a listener of this request's events. */
    Request listener(Listener listener);

    /** Adds a listener of the response's events, told before the one given to send. */
    Request onResponse(Response.Listener listener);

    /**
     * Takes or refuses what the server pushes with this request (HTTP/2, when the client's
     * {@link HttpClient#getHttp2Configuration() HTTP/2 configuration} enables push):
     * {@code pushes} is given each promised request, on the connection's reading thread (it
     * must not block), and returns the listener of its response, or null to refuse it
     * (RST_STREAM CANCEL). Without it every push is refused. A pushed response is told like any
     * other (its cookies stored, gzip decoded), without retries, redirects or authentication.
     */
    Request onPush(Function<Request, Response.Listener> pushes);

    /** @return what {@link #onPush} set, or null */
    Function<Request, Response.Listener> getPushListener();

    /**
     * Sends the request and waits for the whole response, buffered in memory up to
     * {@link HttpClient#setMaxResponseContentBytes}.
     *
     * @throws TimeoutException when a timeout of this exchange expired (its message names which)
     * @throws ExecutionException with the cause when the exchange failed otherwise
     * @throws InterruptedException when the waiting thread was interrupted (the request is then aborted)
     */
    ContentResponse send() throws InterruptedException, TimeoutException, ExecutionException;

    /** Sends the request; the future completes with the buffered response or the failure. */
    CompletableFuture<ContentResponse> sendAsync();

    /** Sends the request and tells {@code listener} every event of the response, ending with onComplete. */
    void send(Response.Listener listener);

    /**
     * Ends the exchange with {@code cause}, from any thread, whatever it is doing: queued,
     * writing, waiting or reading. Its connection, if any, is closed. When the exchange had
     * ended with a redirect or a challenge the client follows up, the request sent on its
     * behalf is aborted instead.
     *
     * @return true when this call ended the exchange (or what follows it); false when it had already ended
     */
    boolean abort(Throwable cause);

    /** @return the cause given to the first successful {@link #abort}, or null */
    Throwable getAbortCause();

    /**
     * The events of a request, in order: queued, begin, headers, commit, content (each chunk
     * written), then success or failure. Called on the client's threads; must not block.
     * A request retried on another connection after its first connection failed (see
     * {@link HttpClient}) is told begin, headers and commit again.
     */
    interface Listener {

        /** The request waits in its destination's queue. */
        default void onQueued(Request request) {
        }

        /** The request got a connection and is about to be written. */
        default void onBegin(Request request) {
        }

        /** The head is built (its final header fields are in {@link Request#getHeaders()}). */
        default void onHeaders(Request request) {
        }

        /** The head was written to the connection. */
        default void onCommit(Request request) {
        }

        /** A piece of content was written; {@code content} is a read-only view valid during the call. */
        default void onContent(Request request, ByteBuffer content) {
        }

        /** The whole request was written. */
        default void onSuccess(Request request) {
        }

        /** The request could not be written completely. */
        default void onFailure(Request request, Throwable failure) {
        }
    }
}
