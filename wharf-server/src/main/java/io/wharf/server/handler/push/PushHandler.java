package io.wharf.server.handler.push;

import java.util.List;
import java.util.Objects;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.server.Handler;
import io.wharf.server.Push;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * A handler wrapper that sends a page's sub-resources ahead of it, as its {@link PushStrategy}
 * (a {@link ReferrerPushStrategy} unless given another) expects the page to need them:
 * <ul>
 * <li>to a client that accepts <b>server push</b> (HTTP/2 with SETTINGS_ENABLE_PUSH on, see
 *     {@link Request#getPush()}), each resource is promised and answered at once by the
 *     handlers, as if the client had asked (RFC 9113 section 8.4);</li>
 * <li>to the others — every current browser — a {@code 103 Early Hints} (RFC 8297) with one
 *     {@code Link: <path>; rel=preload; as=...} field per resource goes before the response,
 *     so the browser fetches them while the server still makes the page. No 103 goes to an
 *     HTTP/1.0 client, which cannot parse one (RFC 9110 section 15.2).</li>
 * </ul>
 * Every request's final status goes back to the strategy, which is how it learns.
 *
 * <p>A pushed request carries the page request's {@code user-agent}, {@code accept-encoding},
 * {@code accept-language} and {@code cookie}, so it is answered as the browser's own request
 * would be. The child may write at once: with hints, its writes wait for the 103 to be out
 * (see {@link HintedResponse}).
 *
 * <p><b>Threads.</b> Runs on the child's thread; its invocation type is the child's. Configure
 * before starting.
 */
public class PushHandler extends Handler.Wrapper {

    private static final HttpHeader[] PUSHED_FIELDS = {
        HttpHeader.USER_AGENT, HttpHeader.ACCEPT_ENCODING, HttpHeader.ACCEPT_LANGUAGE, HttpHeader.COOKIE
    };

    private final PushStrategy strategy;

    /** With a {@link ReferrerPushStrategy} of the default settings. */
    public PushHandler() {
        this(new ReferrerPushStrategy());
    }

    public PushHandler(PushStrategy strategy) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
    }

    /** As {@link #PushHandler(PushStrategy)}, wrapping {@code handler}. */
    public PushHandler(PushStrategy strategy, Handler handler) {
        this(strategy);
        setHandler(handler);
    }

    /** @return the strategy that picks the resources */
    public PushStrategy getStrategy() {
        return strategy;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Response target = response;
        Callback done = callback;
        List<PushResource> resources = strategy.resourcesFor(request);
        if (!resources.isEmpty()) {
            Push push = request.getPush();
            if (push != null) {
                push(request, push, resources);
            } else if (request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_1_0) {
                HintedResponse hinted = hint(request, response, resources);
                target = hinted;
                // The exchange must not end (the server writing the response itself) before the 103 is out.
                Callback original = callback;
                done = Callback.from(InvocationType.NON_BLOCKING,
                        () -> hinted.afterHint(original::succeeded),
                        cause -> hinted.afterHint(() -> original.failed(cause)));
            }
        }
        Response answered = target;
        Callback learning = Callback.then(InvocationType.NON_BLOCKING, () -> strategy.answered(request, answered.getStatus()), done);
        return super.handle(request, target, learning);
    }

    private static void push(Request request, Push push, List<PushResource> resources) {
        HttpFields.Mutable fields = HttpFields.build(PUSHED_FIELDS.length);
        for (HttpHeader header : PUSHED_FIELDS) {
            for (HttpField field : request.getHeaders().getFields(header)) {
                fields.add(header.lowerCaseName(), field.getValue());
            }
        }
        for (PushResource resource : resources) {
            if (!push.push(resource.pathQuery(), fields)) {
                break; // The client allows no more now: the rest it will ask for itself.
            }
        }
    }

    /** Writes the 103 and @return the response whose writes wait for it. */
    private static HintedResponse hint(Request request, Response response, List<PushResource> resources) {
        HttpFields.Mutable links = HttpFields.build(resources.size());
        for (PushResource resource : resources) {
            links.add(HttpHeader.LINK, resource.asLinkValue());
        }
        HintedResponse hinted = new HintedResponse(request, response);
        response.writeInterim(HttpStatus.EARLY_HINTS_103, links, hinted);
        return hinted;
    }
}
