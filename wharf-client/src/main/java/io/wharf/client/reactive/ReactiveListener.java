package io.wharf.client.reactive;

import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.client.Request;
import io.wharf.client.Response;
import io.wharf.client.Result;
import io.wharf.client.internal.content.PulledPublisher;
import io.wharf.io.Content;

/**
 * Joins one request's response events to its two publishers: the response publisher's pull
 * sends the request, the head is its one item; the content publisher's pull runs the demand
 * the client gave with the last chunk. Called on the client's threads and from the publishers'
 * drain loops; holds no buffer (content items are copies, made on the reading thread).
 */
final class ReactiveListener implements Response.Listener {

    private final Request request;
    private final AtomicBoolean sent = new AtomicBoolean();
    private volatile boolean headArrived;
    /** The client's demand for the chunk after the last one offered; run by the content publisher's pull. */
    private final AtomicReference<Runnable> nextDemand = new AtomicReference<>();
    private final PulledPublisher<ReactiveResponse> responses;
    private final PulledPublisher<ByteBuffer> contents;

    ReactiveListener(Request request) {
        this.request = request;
        this.responses = new PulledPublisher<>(new PulledPublisher.Source() {
            @Override
            public void pull() {
                if (sent.compareAndSet(false, true)) {
                    request.send(ReactiveListener.this);
                }
            }

            @Override
            public void cancel() {
                if (!headArrived) {
                    request.abort(new CancellationException("the response subscription was cancelled"));
                }
            }
        });
        this.contents = new PulledPublisher<>(new PulledPublisher.Source() {
            @Override
            public void pull() {
                Runnable demand = nextDemand.getAndSet(null);
                if (demand != null) {
                    demand.run();
                }
            }

            @Override
            public void cancel() {
                request.abort(new CancellationException("the content subscription was cancelled"));
            }
        });
    }

    PulledPublisher<ReactiveResponse> responses() {
        return responses;
    }

    @Override
    public void onHeaders(Response response) {
        headArrived = true;
        responses.offer(new ReactiveResponse(response, contents));
        responses.complete();
    }

    @Override
    public void onContent(Response response, Content.Chunk chunk, Runnable demand) {
        if (!chunk.hasRemaining()) {
            demand.run();
            return;
        }
        ByteBuffer copy = ByteBuffer.allocate(chunk.remaining());
        copy.put(chunk.getByteBuffer().slice()).flip();
        // Set before the offer: a subscriber with demand pulls the next chunk within it.
        nextDemand.set(demand);
        contents.offer(copy);
    }

    @Override
    public void onComplete(Result result) {
        if (result.isSucceeded()) {
            contents.complete();
            return;
        }
        Throwable failure = result.getFailure();
        if (headArrived) {
            contents.fail(failure);
        } else {
            responses.fail(failure);
        }
    }
}
