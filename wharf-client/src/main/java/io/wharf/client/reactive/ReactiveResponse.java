package io.wharf.client.reactive;

import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

import io.wharf.client.Response;
import io.wharf.http.HttpFields;

/**
 * The response of a {@link ReactiveRequest}, emitted once its head arrived: status and fields
 * here, and the content as a publisher of {@link ByteBuffer}s. Each content item is a heap
 * buffer of its own, copied from the network buffer: the subscriber owns it and may keep it.
 */
public final class ReactiveResponse {

    private final Response response;
    private final Flow.Publisher<ByteBuffer> content;

    ReactiveResponse(Response response, Flow.Publisher<ByteBuffer> content) {
        this.response = response;
        this.content = content;
    }

    /** @return the client's response, for its request, version, reason and trailers (once the content ended) */
    public Response getResponse() {
        return response;
    }

    public int getStatus() {
        return response.getStatus();
    }

    public HttpFields getHeaders() {
        return response.getHeaders();
    }

    /**
     * @return the publisher of the content (one subscriber): items as the bytes arrive, then
     *     completion when the response ended, or the failure that ended it
     */
    public Flow.Publisher<ByteBuffer> content() {
        return content;
    }

    @Override
    public String toString() {
        return "ReactiveResponse[" + response.getStatus() + " for " + response.getRequest() + "]";
    }
}
