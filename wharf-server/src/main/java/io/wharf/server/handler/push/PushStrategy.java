package io.wharf.server.handler.push;

import java.util.List;

import io.wharf.server.Request;

/**
 * Decides which sub-resources to announce (103 Early Hints) or push (HTTP/2) with a page,
 * usually by learning from what browsers asked for after it. {@link ReferrerPushStrategy} is
 * the default. {@link PushHandler} consults it for every request.
 *
 * <p><b>Threads.</b> Called concurrently by every request's thread; implementations are
 * thread-safe and never block.
 */
public interface PushStrategy {

    /**
     * @return the sub-resources to announce or push before {@code request}'s response, in the
     *     order to send them; empty when there are none (or the client says it has them cached)
     */
    List<PushResource> resourcesFor(Request request);

    /** {@code request} was answered with {@code status}: a strategy may learn from it. */
    void answered(Request request, int status);
}
