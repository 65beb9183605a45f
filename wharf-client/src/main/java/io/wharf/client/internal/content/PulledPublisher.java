package io.wharf.client.internal.content;

import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link Flow.Publisher} for one subscriber, of items pulled one at a time from a
 * {@link Source}: the reactive client's response and content publishers. When the subscriber
 * has demand and no item is waiting, the publisher asks the source for one ({@link Source#pull});
 * the source answers, then or later and on any thread, with {@link #offer}, {@link #complete}
 * or {@link #fail}. A source may also offer one item before it was asked (the first content of
 * a response arrives unasked); it is kept until the subscriber wants it.
 *
 * <p><b>Signals.</b> Every signal to the subscriber comes from one drain loop that at most one
 * thread runs at a time (a work-in-progress counter), so signals never overlap (Reactive Streams
 * rule 1.3) and a subscriber that requests from {@code onNext} does not recurse (rule 3.3): the
 * request is taken by the loop already running. {@code request(n)} with {@code n <= 0} ends the
 * subscription with an {@link IllegalArgumentException} (rule 3.9); demand adds up to
 * {@code Long.MAX_VALUE} (rule 3.17). A second subscriber gets an {@link IllegalStateException}
 * after a no-op subscription (rule 1.9). Cancelling tells the source, once.
 *
 * <p><b>Items.</b> The publisher keeps no reference to an item once delivered; who owns an
 * item is the source's and the subscriber's business (the client's content items are copies).
 *
 * @param <T> the items
 */
public final class PulledPublisher<T> implements Flow.Publisher<T> {

    /** Where the items come from. Called from the drain loop: must not block. */
    public interface Source {
        /** The subscriber wants one more item: answer with one offer, or complete, or fail. */
        void pull();

        /** The subscriber cancelled, or broke the rules: produce nothing more. Called at most once. */
        void cancel();
    }

    /** Stands for a subscriber that was told the end or cancelled: the publisher keeps no reference to it (rule 3.13). */
    private static final Flow.Subscriber<Object> GONE = new Flow.Subscriber<>() {
        @Override
        public void onSubscribe(Flow.Subscription subscription) {
        }

        @Override
        public void onNext(Object item) {
        }

        @Override
        public void onError(Throwable throwable) {
        }

        @Override
        public void onComplete() {
        }
    };

    private final Source source;
    private final AtomicReference<Flow.Subscriber<? super T>> subscriber = new AtomicReference<>();
    private final AtomicBoolean sourceCancelled = new AtomicBoolean();
    private final AtomicInteger work = new AtomicInteger();
    private final AtomicLong requested = new AtomicLong();
    private volatile T pending;
    private volatile boolean pulling;
    private volatile boolean completed;
    private volatile Throwable failure;
    private volatile boolean cancelled;
    private volatile boolean badRequest;
    private volatile long badDemand;

    public PulledPublisher(Source source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> candidate) {
        Objects.requireNonNull(candidate, "subscriber");
        if (!subscriber.compareAndSet(null, candidate)) {
            candidate.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            candidate.onError(new IllegalStateException("this publisher takes one subscriber, and has one"));
            return;
        }
        candidate.onSubscribe(new Subscription());
        drain();
    }

    /** The source's answer to a pull (or its first item, unasked). Any thread. */
    public void offer(T item) {
        pending = Objects.requireNonNull(item, "item");
        pulling = false;
        drain();
    }

    /** The source has no more items. Any thread. */
    public void complete() {
        completed = true;
        drain();
    }

    /** The source failed: the subscriber is told after the items already offered. Any thread. */
    public void fail(Throwable cause) {
        failure = Objects.requireNonNull(cause, "cause");
        drain();
    }

    /** @return whether the subscriber cancelled or broke the demand rules */
    public boolean isCancelled() {
        return cancelled;
    }

    private void drain() {
        if (work.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        while (true) {
            step();
            missed = work.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    /** Signals what can be signalled now. The drain loop's thread only. */
    private void step() {
        Flow.Subscriber<? super T> target = subscriber.get();
        if (target == null || target == GONE) {
            return;
        }
        while (true) {
            if (badRequest) {
                end();
                cancelSource();
                target.onError(new IllegalArgumentException("request(" + badDemand + "): demand must be positive (Reactive Streams rule 3.9)"));
                return;
            }
            if (cancelled) {
                end();
                return;
            }
            T item = pending;
            if (item != null) {
                if (requested.get() == 0) {
                    return;
                }
                pending = null;
                if (requested.get() != Long.MAX_VALUE) {
                    requested.decrementAndGet();
                }
                target.onNext(item);
                continue;
            }
            Throwable cause = failure;
            if (cause != null) {
                end();
                target.onError(cause);
                return;
            }
            if (completed) {
                end();
                target.onComplete();
                return;
            }
            if (requested.get() > 0 && !pulling) {
                pulling = true;
                source.pull();
                continue;
            }
            return;
        }
    }

    /** The subscriber is told its last signal now, or cancelled: forget it and any waiting item. */
    private void end() {
        subscriber.set(GONE);
        pending = null;
    }

    private void cancelSource() {
        cancelled = true;
        if (sourceCancelled.compareAndSet(false, true)) {
            source.cancel();
        }
    }

    /** The subscriber's handle. */
    private final class Subscription implements Flow.Subscription {

        @Override
        public void request(long n) {
            if (n <= 0) {
                if (!badRequest) {
                    badDemand = n;
                    badRequest = true;
                }
            } else {
                requested.getAndAccumulate(n, (current, more) -> current + more < 0 ? Long.MAX_VALUE : current + more);
            }
            drain();
        }

        @Override
        public void cancel() {
            if (!cancelled && subscriber.get() != GONE) {
                cancelSource();
            }
            cancelled = true;
            drain();
        }
    }
}
