package io.wharf.server.handler;

import java.util.List;
import java.util.Objects;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * A handler wrapper that sends {@code 103 Early Hints} (RFC 8297) before a page's response:
 * one {@code Link: <path>; rel=preload; as=...} field per sub-resource its {@link PushStrategy}
 * (a {@link ReferrerPushStrategy} unless given another) expects the page to need, so that a
 * browser starts fetching them while the server is still making the page. Every request's
 * final status goes back to the strategy, which is how it learns.
 *
 * <p>No 103 goes to an HTTP/1.0 client, which cannot parse one (RFC 9110 section 15.2). Browsers
 * act on 103 over HTTP/2 and later; over HTTP/1.1 it costs a few bytes and is ignored by
 * clients that do not know it. The child may write at once: its writes wait for the 103 to be
 * out (see {@link HintedResponse}).
 *
 * <p><b>Threads.</b> Runs on the child's thread; its invocation type is the child's. Configure
 * before starting.
 */
public class EarlyHintsHandler extends Handler.Wrapper {

    private final PushStrategy strategy;

    /** With a {@link ReferrerPushStrategy} of the default settings. */
    public EarlyHintsHandler() {
        this(new ReferrerPushStrategy());
    }

    public EarlyHintsHandler(PushStrategy strategy) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
    }

    /** As {@link #EarlyHintsHandler(PushStrategy)}, wrapping {@code handler}. */
    public EarlyHintsHandler(PushStrategy strategy, Handler handler) {
        this(strategy);
        setHandler(handler);
    }

    /** @return the strategy that picks the hinted resources */
    public PushStrategy getStrategy() {
        return strategy;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Response target = response;
        Callback done = callback;
        List<PushResource> resources = strategy.resourcesFor(request);
        if (!resources.isEmpty() && request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_1_0) {
            HttpFields.Mutable links = HttpFields.build(resources.size());
            for (PushResource resource : resources) {
                links.add(HttpHeader.LINK, resource.asLinkValue());
            }
            HintedResponse hinted = new HintedResponse(request, response);
            target = hinted;
            // The exchange must not end (the server writing the response itself) before the 103 is out.
            Callback original = callback;
            done = Callback.from(InvocationType.NON_BLOCKING,
                    () -> hinted.afterHint(original::succeeded),
                    cause -> hinted.afterHint(() -> original.failed(cause)));
            response.writeInterim(HttpStatus.EARLY_HINTS_103, links, hinted);
        }
        Response answered = target;
        Callback learning = Callback.then(InvocationType.NON_BLOCKING, () -> strategy.answered(request, answered.getStatus()), done);
        return super.handle(request, target, learning);
    }
}
