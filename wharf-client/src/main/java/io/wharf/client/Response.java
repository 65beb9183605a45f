package io.wharf.client;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpVersion;
import io.wharf.io.Content;

/**
 * The response of an exchange, as it arrives: status and header fields, then content told to
 * a {@link Listener}, then trailers. Filled by the connection's reading thread; read it from
 * listeners, or from any thread once the exchange is complete.
 */
public interface Response {

    /** @return the request this answers */
    Request getRequest();

    /** @return the version of the status line, or null before it arrived */
    HttpVersion getVersion();

    /** @return the status code, or 0 before the status line arrived */
    int getStatus();

    /** @return the reason phrase, possibly empty */
    String getReason();

    /** @return the header fields received so far */
    HttpFields getHeaders();

    /** @return the trailer fields (of a chunked response), possibly empty */
    HttpFields getTrailers();

    /** Aborts the exchange; the same as {@code getRequest().abort(cause)}. */
    default boolean abort(Throwable cause) {
        return getRequest().abort(cause);
    }

    /**
     * The events of a response, in order: begin (status line), each header field, headers,
     * each content chunk (with demand), then success or failure, then complete, which comes
     * exactly once per exchange, when both request and response are over. Interim 1xx
     * responses (100 Continue, 103 Early Hints) are told to {@link #onInformational} before
     * the final response begins. When the client follows up a response (a redirect, a 401 it
     * answers), the listeners hear nothing of that response but its interim responses, and
     * hear the final response of the request sent on its behalf; a failed follow-up is told
     * as a failure of the response that asked for it.
     *
     * <p><b>Threads.</b> Called on the client's threads, usually the selector thread that read
     * the bytes: must not block. <b>Content and demand.</b> {@link #onContent} gets one chunk
     * and nothing more is read from the connection until the listener runs {@code demand}
     * (then, or later from any thread): that is the back-pressure. The chunk (a slice of a
     * pooled network buffer) is valid during the call; a listener that keeps it retains it
     * and releases it when done. After a failure, a content call already under way on another
     * thread may still finish.
     */
    interface Listener {

        /**
         * An interim response (1xx) arrived: 100 Continue, 103 Early Hints with its Link
         * fields, or another. {@code interim} holds its status and fields.
         */
        default void onInformational(Response interim) {
        }

        /** The status line of the final response arrived. */
        default void onBegin(Response response) {
        }

        /** @return false to leave {@code field} out of {@link Response#getHeaders()} */
        default boolean onHeader(Response response, HttpField field) {
            return true;
        }

        /** All header fields arrived. */
        default void onHeaders(Response response) {
        }

        /**
         * A piece of content arrived. By default it is dropped and the next one demanded.
         *
         * @param chunk valid during the call; retain it to keep it
         * @param demand run it (once, from any thread) to receive the next chunk
         */
        default void onContent(Response response, Content.Chunk chunk, Runnable demand) {
            demand.run();
        }

        /** The whole response arrived. */
        default void onSuccess(Response response) {
        }

        /** The response could not be received completely. */
        default void onFailure(Response response, Throwable failure) {
        }

        /** The exchange is over: told once, after both request and response ended. */
        default void onComplete(Result result) {
        }
    }
}
