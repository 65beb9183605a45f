package io.wharf.server.internal;

import java.nio.ByteBuffer;

import io.wharf.http.BadMessageException;
import io.wharf.http.HostPort;
import io.wharf.http.HttpFields;
import io.wharf.io.Content;
import io.wharf.server.Push;
import io.wharf.util.Callback;

/**
 * What one protocol does for one {@link ServerExchange}: the request's content comes from it,
 * the response's head and content go through it, and it says what the protocol alone knows
 * (the authority the request names, whether the connection outlives the exchange, how a
 * switch of protocols or a push is made). Everything else about a request and its response
 * (URI, customizers, attributes, error answers, completion, {@code 100 Continue}) is the
 * exchange's, once for every protocol. See {@link ServerExchange} for where it sits.
 *
 * <p>HTTP/1.1 supplies one per request, fed by its connection's parser; HTTP/2 one per
 * stream, fed by its session. HTTP/3 will supply one per QUIC stream.
 *
 * <p><b>Threads.</b> The request side is called by whoever reads the content (the handler's
 * thread, then a demand callback's), one at a time; the response side by whoever writes,
 * one write at a time as {@link #claimWrite()} decides. <b>Buffers.</b> A chunk {@link #read()}
 * returns belongs to the caller; a buffer given to {@link #write} is only read, and belongs to
 * the caller again when the write's callback completes.
 */
public interface ServerStream {

    // ---- the request's head, as the protocol received it ----

    /** @return the request's method */
    String method();

    /**
     * @return the request target as sent: a path (and query), an absolute URI, {@code *}, or
     *     the authority of a CONNECT that opens a tunnel
     */
    String target();

    /** @return the request's header fields */
    HttpFields fields();

    /** @return the content's length: -1 when not known ahead */
    long length();

    // ---- the request, before the handlers see it ----

    /**
     * @return the authority the request names ({@code Host}, {@code :authority}), or null when
     *     it names none
     * @throws BadMessageException 400 when it names something that is not an authority
     */
    HostPort authority();

    /** @return the scheme of the request's URI: {@code "https"} over TLS, else {@code "http"}, or what the request said */
    String scheme();

    /** @return where the last URI made from the same inputs is kept, or null when this protocol keeps none */
    UriMemory uriMemory();

    /**
     * The URI is made and the customizers are next: the protocol answers what only it answers.
     *
     * @return whether it took the request (and completed the exchange): the handlers never see it
     * @throws BadMessageException to answer the request with its status instead of the handlers
     */
    boolean intercept(ServerExchange exchange);

    /** @return the offer of a switch of protocols the request makes, or null; asked once, on a handler's first ask */
    ProtocolSwitch offerSwitch(ExchangeResponse response);

    /** @return how to push resources beside this request, or null when the protocol or the client cannot take pushes */
    Push push();

    /** @return the exchange's id: the connection's and this request's on it; asked once */
    String id();

    // ---- the request's content ----

    /** @return the next chunk of content, or null when none is ready (see {@link Content.Source#read()}) */
    Content.Chunk read();

    /** Runs {@code onContentAvailable} once a chunk (or the end, or a failure) is ready to {@link #read()}. */
    void demand(Runnable onContentAvailable);

    /** The content fails with {@code cause}: reads see it from now on. */
    void fail(Throwable cause);

    /** @return the request's trailers, once the content ended with some; else null */
    HttpFields trailers();

    /**
     * @return the bad-request failure the content ended with, which the exchange answers when
     *     the handler committed nothing; null when none, or when the protocol answers it itself
     */
    BadMessageException contentFailure();

    // ---- the response ----

    /** @return whether this call claimed the next write; false while another write is under way */
    boolean claimWrite();

    /** Writes {@code 100 Continue}: the client holds back its content until it gets one. */
    void writeContinue();

    /** Writes an interim head (1xx other than 101) with {@code fields}. */
    void writeInterim(int status, HttpFields fields, Callback callback);

    /**
     * Writes {@code content} of {@code response}, after its head when {@code commit}; ends the
     * response when {@code last}. Called after {@link #claimWrite()}; releases the claim before
     * completing {@code callback}.
     */
    void write(ExchangeResponse response, boolean commit, ByteBuffer content, boolean last, Callback callback);

    /** The next write is the last: the protocol settles what is left of the request before it. */
    void beforeLastWrite();

    /** The connection is not reused after this exchange (where the protocol reuses connections at all). */
    void closeAfterResponse();

    /**
     * A handler accepted {@code accepted} and succeeded: writes the head that opens the new
     * protocol as the whole response, and hands the transport over to it.
     */
    void switchProtocols(ProtocolSwitch accepted, ExchangeResponse response);

    /**
     * @return the callback the exchange completes when its response is all written (succeeded)
     *     or cannot be (failed); the same instance every time, made with the stream
     */
    Callback responseDone();
}
