package io.wharf.client.transport;

import java.nio.ByteBuffer;
import java.time.Duration;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpVersion;
import io.wharf.http.MetaData;
import io.wharf.io.Content;

/**
 * What a {@link ClientConnection} sees of one exchange it carries: the request to send, and
 * the calls by which it tells the client how the request went out and what came back. The
 * client's request and response listeners, its redirects, cookies, authentication and decoding
 * all hang off these calls, so a transport that makes them in order gets all of that for free.
 *
 * <pre>
 *  request:   requestBegin ─► requestHeaders ─► requestCommitted ─► requestContent* ─► requestSucceeded
 *  response:  responseInformational* ─► responseBegin ─► responseHeader* ─► responseHeaders
 *               ─► responseContent* (each after the last one's demand) ─► responseTrailer* ─► responseSucceeded
 *  any time:  fail(cause), or retry() on another connection while nothing of the response was told
 *  end:       tryComplete() ─► the connection goes back (release) or closes ─► complete()
 * </pre>
 *
 * <p>The two sides are independent (a server may answer before the request's content is all
 * sent); the exchange is over when both are, and {@link #tryComplete()} says so to exactly one
 * caller.
 *
 * <p><b>Threads.</b> Any thread may call any method, but the events of one side come from one
 * thread at a time, in the order drawn above. Listeners run on the calling thread and must not
 * block it. <b>Buffers.</b> A content chunk given to {@link #responseContent} stays the
 * transport's: it releases it once the call returns; a listener that keeps it retains it.
 */
public interface TransportExchange {

    // ---- the request ----

    /**
     * @return the request head to send: method, target (origin form, or absolute form through
     *     an HTTP proxy), version and fields, the Host, User-Agent and Content-Type the client
     *     adds included; its content length, or -1 when unknown
     */
    MetaData.Request requestHead();

    /** @return the request content to read and send, chunk by chunk, releasing each; null when there is none */
    Content.Source requestContent();

    /** @return whether reading {@link #requestContent()} may block: read it on a pool thread, never a selector thread */
    boolean isRequestContentBlocking();

    /** @return whether the request is HEAD, whose response has no content */
    boolean isHead();

    /** @return how long the exchange may be silent once its head is sent, or null for the connection's own idle timeout */
    Duration idleTimeout();

    /** The request is about to be sent: its listeners' {@code onBegin}. */
    void requestBegin();

    /** The request's fields are final: its listeners' {@code onHeaders}. */
    void requestHeaders();

    /** The request head was written: its listeners' {@code onCommit}. */
    void requestCommitted();

    /** {@code written} of the request content was written: its listeners' {@code onContent}. */
    void requestContent(ByteBuffer written);

    /** The whole request was written. @return whether this call ended the request side (false once it is over) */
    boolean requestSucceeded();

    // ---- the response ----

    /** An interim (1xx) response came, other than 101: its listeners' {@code onInformational}. */
    void responseInformational(HttpVersion version, int status, String reason, HttpFields fields);

    /** The final response's status line: its listeners' {@code onBegin}. */
    void responseBegin(HttpVersion version, int status, String reason);

    /** A field of the response head. @return whether the listeners kept it (it is then in the response's fields) */
    boolean responseHeader(HttpField field);

    /** The response head is complete: its listeners' {@code onHeaders}. */
    void responseHeaders();

    /**
     * A chunk of response content: told to the listeners, and {@code demand} runs (on any
     * thread, maybe before this call returns) once they want the next one. The transport must
     * not tell the next chunk before then: that is the back-pressure.
     */
    void responseContent(Content.Chunk chunk, Runnable demand);

    /** A trailer field of the response. */
    void responseTrailer(HttpField field);

    /** The whole response arrived. @return whether this call ended the response side (false once it is over) */
    boolean responseSucceeded();

    // ---- the whole exchange ----

    /** @return whether the request side is over (succeeded or failed) */
    boolean isRequestOver();

    /** @return whether the response side is over (succeeded or failed): an aborted exchange's is */
    boolean isResponseOver();

    /**
     * Fails whatever side is still pending with {@code cause} and tells the listeners.
     *
     * @return whether this call ended at least one side
     */
    boolean fail(Throwable cause);

    /**
     * Sends the exchange again on another connection of its destination, when that is safe: once,
     * for an idempotent request whose content can be read again, while nothing of the response
     * was told and nothing failed the exchange. The caller then forgets it (and must not call
     * {@link #tryComplete()} for it).
     *
     * @return whether it was queued again; false: fail it instead
     */
    boolean retry();

    /**
     * @return true, once, when both sides are over: the caller then gives its connection back to
     *     the destination ({@link TransportDestination#release}) when {@link #isSucceeded()} and
     *     it is reusable, or closes it, and then calls {@link #complete()}
     */
    boolean tryComplete();

    /** @return whether both sides succeeded; meaningful once {@link #tryComplete()} returned true */
    boolean isSucceeded();

    /** Tells the listeners the exchange is over; once, by the caller that {@link #tryComplete()} chose. */
    void complete();
}
