package io.wharf.client.internal.content;

import java.util.concurrent.Flow;

import org.reactivestreams.tck.TestEnvironment;
import org.reactivestreams.tck.flow.FlowPublisherVerification;

/**
 * The Reactive Streams TCK (Flow variant, run by the JUnit Platform's TestNG engine) against
 * {@link PulledPublisher} with a source that answers each pull at once with the next of
 * {@code elements} numbers and completes after the last: the publisher's side of every rule,
 * including unbounded recursion (rule 3.3), demand up to {@code Long.MAX_VALUE} (3.17) and
 * dropping the subscriber after cancel (3.13).
 */
public class PulledPublisherTckTest extends FlowPublisherVerification<Long> {

    public PulledPublisherTckTest() {
        super(new TestEnvironment(500));
    }

    @Override
    public Flow.Publisher<Long> createFlowPublisher(long elements) {
        Counting source = new Counting(elements);
        PulledPublisher<Long> publisher = new PulledPublisher<>(source);
        source.publisher = publisher;
        if (elements == 0) {
            publisher.complete();
        }
        return publisher;
    }

    @Override
    public Flow.Publisher<Long> createFailedFlowPublisher() {
        PulledPublisher<Long> publisher = new PulledPublisher<>(new Counting(0));
        publisher.fail(new RuntimeException("a failed publisher, as the TCK asks"));
        return publisher;
    }

    /** Offers 0, 1, 2... one per pull, and completes with the last. */
    private static final class Counting implements PulledPublisher.Source {
        private final long elements;
        private long next;
        private PulledPublisher<Long> publisher;

        Counting(long elements) {
            this.elements = elements;
        }

        @Override
        public void pull() {
            if (next < elements) {
                publisher.offer(next++);
                if (next == elements) {
                    publisher.complete();
                }
            }
        }

        @Override
        public void cancel() {
        }
    }
}
