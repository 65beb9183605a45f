package io.wharf.client.internal;

import java.io.IOException;
import java.util.List;

import io.wharf.client.Response;
import io.wharf.client.Result;
import io.wharf.client.internal.cookie.CookieHeaders;
import io.wharf.client.transport.ClientSettings;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.io.Content;

/**
 * The response listener of one hop of a {@link Conversation}: holds the head back until all
 * of it arrived, then either follows up (the content is read and dropped, up to
 * {@link Conversation#MAX_DROPPED_CONTENT} bytes, so the connection stays reusable, and the
 * next hop goes when the exchange completes) or hands the response to the application —
 * head, then content (through a {@link ResponseInflater} for gzip), then the end.
 *
 * <p>Interim responses (1xx) and failures are always told to the application: a hop that
 * fails ends the conversation, its response (possibly one the application never saw begin)
 * carrying the failure.
 *
 * <p><b>Threads.</b> Told by the hop's connection on its reading thread, one event at a
 * time; completion and failure may come from any thread. What the head decided is volatile,
 * for the completing thread. <b>Buffers.</b> Content chunks pass through (or to the inflater);
 * dropped ones are only counted.
 */
final class HopListener implements Response.Listener {

    /** Where the hop's response goes. */
    private enum Route {
        /** The head is not complete yet. */
        PENDING,
        /** To the application. */
        APPLICATION,
        /** Dropped: the conversation goes on with another request. */
        FOLLOW_UP
    }

    private final Conversation conversation;
    private final HttpRequest request;
    private volatile Route route = Route.PENDING;
    private volatile HttpRequest next;
    private volatile ResponseInflater inflater;
    private volatile Throwable contentFailure;
    private long dropped;

    HopListener(Conversation conversation, HttpRequest request) {
        this.conversation = conversation;
        this.request = request;
    }

    @Override
    public void onInformational(Response interim) {
        conversation.application().informational(interim);
    }

    @Override
    public boolean onHeader(Response response, HttpField field) {
        // Kept for now: the application's listeners filter when they hear the head.
        return true;
    }

    @Override
    public void onHeaders(Response response) {
        CookieHeaders.store(conversation.context().cookieStore(), request.getURI(), response);
        HttpRequest followUp;
        try {
            followUp = conversation.followUp(request, response);
        } catch (IOException | RuntimeException refused) {
            // A follow-up the client refuses, or an application's authentication that threw.
            route = Route.FOLLOW_UP;
            response.abort(refused);
            return;
        }
        if (followUp != null) {
            next = followUp;
            route = Route.FOLLOW_UP;
            return;
        }
        HttpResponse head = (HttpResponse) response;
        inflater = inflaterFor(head);
        route = Route.APPLICATION;
        tellHead(head);
    }

    /**
     * @return an inflater for a gzip response, its Content-Encoding and Content-Length fields
     *     removed; null when the content is told as it came (decoding off, a HEAD, no content,
     *     another coding, or more than one)
     */
    private ResponseInflater inflaterFor(HttpResponse response) {
        ClientSettings settings = request.settings();
        int status = response.getStatus();
        if (!settings.contentDecoding() || HttpMethod.HEAD.is(request.getMethod()) || status == 204 || status == 304) {
            return null;
        }
        List<String> codings = response.getHeaders().getValuesList(HttpHeader.CONTENT_ENCODING);
        if (codings.size() != 1) {
            return null;
        }
        String coding = codings.get(0).strip();
        if (!coding.equalsIgnoreCase("gzip") && !coding.equalsIgnoreCase("x-gzip")) {
            return null;
        }
        HttpFields.Mutable headers = response.mutableHeaders();
        headers.remove(HttpHeader.CONTENT_ENCODING);
        headers.remove(HttpHeader.CONTENT_LENGTH);
        ClientContext context = conversation.context();
        return new ResponseInflater(conversation.application(), response, context.inflaters(),
                settings.responseDecoderLimits(), context.byteBufferPool(), settings.responseBufferSize());
    }

    /** Tells the application the head: begin, each field (dropping those a listener refuses), headers. */
    private void tellHead(HttpResponse response) {
        ResponseEvents application = conversation.application();
        application.begin(response);
        HttpFields.Mutable headers = response.mutableHeaders();
        for (int i = 0; i < headers.size(); ) {
            if (application.header(response, headers.getField(i))) {
                i++;
            } else {
                headers.remove(i);
            }
        }
        application.headers(response);
    }

    @Override
    public void onContent(Response response, Content.Chunk chunk, Runnable demand) {
        if (route == Route.APPLICATION) {
            ResponseInflater decoding = inflater;
            if (decoding != null) {
                decoding.content(chunk, demand);
            } else {
                conversation.application().content(response, chunk, demand);
            }
            return;
        }
        dropped += chunk.remaining();
        if (dropped > Conversation.MAX_DROPPED_CONTENT) {
            response.abort(new IOException("the " + response.getStatus() + " response to " + request
                    + " has more than " + Conversation.MAX_DROPPED_CONTENT + " bytes of content, more than the client"
                    + " reads and drops before it follows up"));
            return;
        }
        demand.run();
    }

    @Override
    public void onSuccess(Response response) {
        if (route != Route.APPLICATION) {
            return;
        }
        ResponseInflater decoding = inflater;
        if (decoding != null) {
            Throwable failure = decoding.finish();
            if (failure != null) {
                contentFailure = failure;
                conversation.application().failure(response, failure);
                return;
            }
        }
        conversation.application().success(response);
    }

    @Override
    public void onFailure(Response response, Throwable failure) {
        ResponseInflater decoding = inflater;
        if (decoding != null) {
            decoding.fail(failure);
        }
        conversation.application().failure(response, failure);
    }

    @Override
    public void onComplete(Result result) {
        if (route == Route.FOLLOW_UP && next != null && result.responseFailure() == null) {
            // The request side may have failed when the server answered before all content was
            // sent (a 401 instead of 100 Continue): the follow-up sends it again all the same.
            conversation.hopComplete(next, result);
            return;
        }
        Throwable failure = contentFailure;
        conversation.hopComplete(null, failure == null ? result
                : new Result(result.request(), result.requestFailure(), result.response(), failure));
    }

    /** @return whether the hop's response asked for another request (a redirect, a challenge), so something follows it */
    boolean isFollowUp() {
        return route == Route.FOLLOW_UP;
    }

    @Override
    public String toString() {
        return "HopListener[" + request + ", " + route + "]";
    }
}
