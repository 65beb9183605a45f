package io.wharf.client;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

import io.wharf.client.internal.BufferedContentResponse;
import io.wharf.http.HttpHeader;
import io.wharf.io.Content;

/**
 * A response listener that copies the content into memory, up to a cap, and completes
 * {@link #future()} with a {@link ContentResponse} when the exchange is over (or with its
 * failure). What {@link Request#send()} and {@link Request#sendAsync()} use.
 *
 * <p>A response whose Content-Length exceeds the cap is aborted when its headers arrive, one
 * that grows past it as soon as it does: the failure is an {@link IOException} naming the cap.
 * <b>Threads.</b> Told by the reading thread, one event at a time; the future may be read
 * from any thread. <b>Buffers.</b> Copies each chunk, so it holds no pooled buffer.
 */
public class BufferingResponseListener implements Response.Listener {

    private final int maxBytes;
    private final CompletableFuture<ContentResponse> future = new CompletableFuture<>();
    private byte[] bytes = new byte[0];
    private int size;

    /** @param maxBytes the most content bytes kept; more fails the exchange */
    public BufferingResponseListener(int maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** @return completed with the response and its content, or with the exchange's failure */
    public CompletableFuture<ContentResponse> future() {
        return future;
    }

    @Override
    public void onHeaders(Response response) {
        long length = response.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        if (length > maxBytes) {
            response.abort(tooLarge(length));
        } else if (length > 0) {
            bytes = new byte[(int) length];
        }
    }

    @Override
    public void onContent(Response response, Content.Chunk chunk, Runnable demand) {
        int count = chunk.remaining();
        if ((long) size + count > maxBytes) {
            response.abort(tooLarge((long) size + count));
            return;
        }
        if (size + count > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes, Math.max(size + count, Math.max(1024L, 2L * bytes.length))));
        }
        chunk.getByteBuffer().duplicate().get(bytes, size, count);
        size += count;
        demand.run();
    }

    private IOException tooLarge(long bytesSoFar) {
        return new IOException("response content of at least " + bytesSoFar + " bytes exceeds the buffer cap of "
                + maxBytes + " bytes (HttpClient.setMaxResponseContentBytes)");
    }

    @Override
    public void onComplete(Result result) {
        if (result.isFailed()) {
            future.completeExceptionally(result.getFailure());
        } else {
            future.complete(new BufferedContentResponse(result.response(),
                    size == bytes.length ? bytes : Arrays.copyOf(bytes, size)));
        }
    }
}
