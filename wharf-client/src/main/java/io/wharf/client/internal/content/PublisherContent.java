package io.wharf.client.internal.content;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.client.RequestContent;
import io.wharf.io.Content;

/**
 * Request content from a {@link Flow.Publisher} of buffers, with back-pressure: the writer's
 * first read subscribes, and one item is requested at a time, only when the writer wants the
 * next chunk, so a publisher is never asked for more than the connection can take. Length
 * unknown (sent chunked on HTTP/1.1); not rewindable (a publisher is subscribed once), so a
 * request with it is never retried.
 *
 * <p>Threads: the writer reads and demands (never blocking: a read with nothing here returns
 * null); the publisher signals on its own threads; {@link #fail} from any thread cancels the
 * subscription. Buffers: each item is handed to the writer as a chunk, written, then dropped:
 * the publisher must not reuse a buffer it emitted.
 */
public final class PublisherContent implements RequestContent, Flow.Subscriber<ByteBuffer> {

    private final Flow.Publisher<ByteBuffer> publisher;
    private final String contentType;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    /** An item was asked for and {@link #read} has not taken it yet. */
    private final AtomicBoolean outstanding = new AtomicBoolean();
    private final AtomicReference<Runnable> waiting = new AtomicReference<>();
    private volatile Flow.Subscription subscription;
    private volatile boolean wanted;
    private volatile ByteBuffer item;
    private volatile boolean complete;
    private volatile Throwable failure;

    public PublisherContent(Flow.Publisher<ByteBuffer> publisher, String contentType) {
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.contentType = contentType;
    }

    @Override
    public Content.Chunk read() {
        ByteBuffer next = item;
        if (next != null) {
            item = null;
            // Only now may the next item be asked for: were the flag cleared by onNext, a read
            // racing it could ask again before taking this item, and the next would overwrite it.
            outstanding.set(false);
            return Content.Chunk.from(next, false);
        }
        Throwable failed = failure;
        if (failed != null) {
            return Content.Chunk.from(failed);
        }
        if (complete) {
            return Content.Chunk.EOF;
        }
        requestOne();
        return null;
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        waiting.set(onContentAvailable);
        if (item != null || failure != null || complete) {
            notifyWaiting();
        } else {
            requestOne();
        }
    }

    /**
     * Asks the publisher for one item, subscribing first. At most one item is outstanding: asked
     * for and not yet taken by {@link #read}, so an item is never asked for while one is held.
     */
    private void requestOne() {
        if (subscribed.compareAndSet(false, true)) {
            wanted = true;
            publisher.subscribe(this);
            return;
        }
        Flow.Subscription current = subscription;
        if (current == null) {
            wanted = true;
        } else if (outstanding.compareAndSet(false, true)) {
            current.request(1);
        }
    }

    private void notifyWaiting() {
        Runnable waiter = waiting.getAndSet(null);
        if (waiter != null) {
            waiter.run();
        }
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        if (this.subscription != null) {
            subscription.cancel();
            return;
        }
        this.subscription = subscription;
        if (failure != null) {
            subscription.cancel();
            return;
        }
        if (wanted && outstanding.compareAndSet(false, true)) {
            subscription.request(1);
        }
    }

    @Override
    public void onNext(ByteBuffer next) {
        item = Objects.requireNonNull(next, "a publisher emitted null");
        notifyWaiting();
    }

    @Override
    public void onError(Throwable cause) {
        failure = cause;
        notifyWaiting();
    }

    @Override
    public void onComplete() {
        complete = true;
        notifyWaiting();
    }

    @Override
    public void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        Flow.Subscription current = subscription;
        if (current != null) {
            current.cancel();
        }
    }

    @Override
    public long getLength() {
        return -1;
    }

    @Override
    public String getContentType() {
        return contentType;
    }

    @Override
    public String toString() {
        return "PublisherContent[" + publisher + ", " + contentType + "]";
    }
}
