package io.wharf.util.buffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import io.wharf.util.component.Dumpable;

/**
 * A {@link ByteBufferPool} for tests: it wraps another pool and tracks every buffer it hands
 * out until that buffer's last release, so that a test can assert that nothing leaked.
 *
 * <p><b>Threads.</b> Any thread acquires, retains and releases; the checks ({@link
 * #outstanding()}, {@link #leaks()}, {@link #assertNoLeaks()}) may run on any thread, usually
 * the test's, while other threads still release.
 *
 * <p><b>Ownership.</b> Each acquisition gets its own wrapper with its own reference count
 * around the wrapped pool's buffer, which goes back to the wrapped pool on the wrapper's last
 * release. The wrapper is never reused, so a reference kept after release stays dead:
 * releasing it, retaining it or touching its {@link ByteBuffer} throws
 * {@link IllegalStateException} even after the memory went to another owner.
 *
 * <p><b>What it reports.</b> A <em>leak</em> is a buffer acquired and not yet freed, listed
 * with its size, kind, the acquiring thread and stack. A <em>misuse</em> is a release or
 * retain of a freed buffer, or an access to its bytes; it throws at once, naming where the
 * buffer was acquired and first freed, and is also kept so that {@link #assertNoLeaks()}
 * fails even when the code under test swallowed the exception. The stacks are captured as a
 * {@link Throwable} at acquire and at the last release, whose frames are only turned into
 * text for a report; with {@code recordHistory} every retain and release is captured too.
 */
public final class LeakTrackingByteBufferPool implements ByteBufferPool, Dumpable {

    /** The most stack frames printed per site. */
    private static final int MAX_FRAMES = 32;

    private final ByteBufferPool delegate;
    private final boolean recordHistory;
    private final AtomicLong sequence = new AtomicLong();
    private final Map<Long, TrackedBuffer> outstanding = new ConcurrentHashMap<>();
    private final Queue<Misuse> misuses = new ConcurrentLinkedQueue<>();
    private final LongAdder acquired = new LongAdder();
    private final LongAdder freed = new LongAdder();

    /** Tracks a new {@link BucketedByteBufferPool} with default settings. */
    public LeakTrackingByteBufferPool() {
        this(new BucketedByteBufferPool());
    }

    /** Tracks the buffers of {@code delegate}, recording acquire and free sites only. */
    public LeakTrackingByteBufferPool(ByteBufferPool delegate) {
        this(delegate, false);
    }

    /**
     * @param delegate the pool that owns the memory
     * @param recordHistory whether to record every retain and release as well, for leaks
     *     whose cause is a missing release among many
     */
    public LeakTrackingByteBufferPool(ByteBufferPool delegate, boolean recordHistory) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.recordHistory = recordHistory;
    }

    @Override
    public RetainableByteBuffer acquire(int size, boolean direct) {
        RetainableByteBuffer buffer = delegate.acquire(size, direct);
        TrackedBuffer tracked = new TrackedBuffer(sequence.incrementAndGet(), buffer, size, direct, new Site("acquired"));
        outstanding.put(tracked.id, tracked);
        acquired.increment();
        return tracked;
    }

    @Override
    public void clear() {
        delegate.clear();
    }

    /** @return the pool that owns the memory */
    public ByteBufferPool getDelegate() {
        return delegate;
    }

    /** @return the number of buffers handed out and not yet freed */
    public int outstanding() {
        return outstanding.size();
    }

    /** @return the buffers handed out and not yet freed, as {@link #outstanding()} counts them */
    public long getInUseCount() {
        return outstanding.size();
    }

    /** @return how many buffers this pool handed out since it was created */
    public long getAcquireCount() {
        return acquired.sum();
    }

    /** @return how many of them had their last release */
    public long getFreeCount() {
        return freed.sum();
    }

    /** @return the buffers not yet freed, in the order they were acquired */
    public List<Leak> leaks() {
        List<TrackedBuffer> tracked = new ArrayList<>(outstanding.values());
        tracked.sort(Comparator.comparingLong(buffer -> buffer.id));
        List<Leak> leaks = new ArrayList<>(tracked.size());
        for (TrackedBuffer buffer : tracked) {
            leaks.add(buffer.toLeak());
        }
        return leaks;
    }

    /** @return the misuses seen since the last {@link #reset()}, in order */
    public List<Misuse> misuses() {
        return List.copyOf(misuses);
    }

    /**
     * Waits for releases that may still be on their way from other threads.
     *
     * @return whether every buffer was freed within {@code timeout}
     */
    public boolean awaitNoLeaks(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!outstanding.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(10)));
        }
        return true;
    }

    /**
     * @throws AssertionError listing every leaked buffer with its size, kind and acquire
     *     stack, and every misuse, when there is any
     */
    public void assertNoLeaks() {
        report(leaks(), misuses());
    }

    /**
     * Waits up to {@code timeout} for every buffer to come back, then asserts on what it saw
     * last: a buffer taken while it waited (a peer still finishing what the test started)
     * gets the rest of the time rather than being reported because it was taken between a
     * wait that saw none and the check.
     *
     * @throws AssertionError as {@link #assertNoLeaks()}
     */
    public void assertNoLeaks(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Leak> leaks;
        while (!(leaks = leaks()).isEmpty() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        report(leaks, misuses());
    }

    private void report(List<Leak> leaks, List<Misuse> seen) {
        if (leaks.isEmpty() && seen.isEmpty()) {
            return;
        }
        StringBuilder report = new StringBuilder();
        report.append(leaks.size()).append(" leaked buffer(s) and ").append(seen.size())
            .append(" misuse(s) of buffers from ").append(delegate).append(System.lineSeparator());
        for (Leak leak : leaks) {
            report.append(leak.describe());
        }
        for (Misuse misuse : seen) {
            report.append(misuse.describe());
        }
        throw new AssertionError(report.toString());
    }

    /** Forgets every tracked buffer and misuse, for the next test; buffers still out are not released. */
    public void reset() {
        outstanding.clear();
        misuses.clear();
    }

    @Override
    public String toString() {
        return "LeakTrackingByteBufferPool@" + Integer.toHexString(System.identityHashCode(this))
            + "{" + outstanding() + " outstanding, " + getAcquireCount() + " acquired, " + getFreeCount() + " freed, "
            + misuses.size() + " misuses, over " + delegate + "}";
    }

    /** Writes {@link #toString()}, the wrapped pool, and one line per buffer not yet freed. */
    @Override
    public void dump(Appendable out, String indent) throws IOException {
        List<Object> children = new ArrayList<>();
        children.add(delegate);
        for (Leak leak : leaks()) {
            children.add(leak.summary());
        }
        Dumpable.dumpObjects(out, indent, this, children);
    }

    private IllegalStateException misuse(Misuse.Kind kind, TrackedBuffer buffer, Site freedAt) {
        Site here = new Site(kind.verb);
        Misuse misuse = new Misuse(kind, buffer.describe(), buffer.acquiredAt.thread, buffer.acquiredAt.frames(),
            freedAt == null ? "" : freedAt.thread, freedAt == null ? List.of() : freedAt.frames(),
            here.thread, here.frames());
        misuses.add(misuse);
        return new IllegalStateException(misuse.describe());
    }

    /**
     * A buffer acquired and not yet freed.
     *
     * @param id the acquisition's number in this pool, from 1
     * @param size the size asked for
     * @param capacity the capacity handed out
     * @param direct whether it is off-heap
     * @param thread the name of the acquiring thread
     * @param acquiredAt the acquiring stack, innermost first, without this pool's frames
     * @param history the retains and releases so far, when the pool records them
     */
    public record Leak(long id, int size, int capacity, boolean direct, String thread, List<StackTraceElement> acquiredAt,
                       List<String> history) {

        /** @return one line: the buffer and the innermost acquiring frame */
        public String summary() {
            return "#" + id + " " + (direct ? "direct" : "heap") + " buffer of " + size + " bytes (capacity " + capacity
                + ") acquired by '" + thread + "' at " + (acquiredAt.isEmpty() ? "?" : acquiredAt.get(0));
        }

        /** @return the buffer, its acquiring stack and its history, on several lines */
        public String describe() {
            StringBuilder out = new StringBuilder("leak: #").append(id).append(' ').append(direct ? "direct" : "heap")
                .append(" buffer of ").append(size).append(" bytes (capacity ").append(capacity).append(')')
                .append(System.lineSeparator());
            appendSite(out, "acquired by '" + thread + "'", acquiredAt);
            for (String event : history) {
                out.append("  ").append(event).append(System.lineSeparator());
            }
            return out.toString();
        }
    }

    /**
     * A use of a buffer after its last release.
     *
     * @param kind what was done
     * @param buffer the buffer, as "#id heap buffer of N bytes"
     * @param acquiredBy the acquiring thread
     * @param acquiredAt the acquiring stack
     * @param freedBy the thread of the last release
     * @param freedAt the stack of the last release
     * @param misusedBy the thread of the misuse
     * @param misusedAt the stack of the misuse
     */
    public record Misuse(Kind kind, String buffer, String acquiredBy, List<StackTraceElement> acquiredAt, String freedBy,
                         List<StackTraceElement> freedAt, String misusedBy, List<StackTraceElement> misusedAt) {

        /** What was done to a freed buffer. */
        public enum Kind {
            /** A release after the last one. */
            OVER_RELEASE("released again"),
            /** A retain after the last release. */
            RETAIN_AFTER_FREE("retained after free"),
            /** A read of the {@link ByteBuffer} after the last release. */
            ACCESS_AFTER_FREE("accessed after free");

            private final String verb;

            Kind(String verb) {
                this.verb = verb;
            }
        }

        /** @return the misuse and its three sites, on several lines */
        public String describe() {
            StringBuilder out = new StringBuilder(kind.name().toLowerCase().replace('_', '-')).append(": ").append(buffer)
                .append(System.lineSeparator());
            appendSite(out, "acquired by '" + acquiredBy + "'", acquiredAt);
            appendSite(out, "first freed by '" + freedBy + "'", freedAt);
            appendSite(out, kind.verb + " by '" + misusedBy + "'", misusedAt);
            return out.toString();
        }
    }

    private static void appendSite(StringBuilder out, String title, List<StackTraceElement> frames) {
        out.append("  ").append(title).append(" at:").append(System.lineSeparator());
        for (StackTraceElement frame : frames) {
            out.append("    at ").append(frame).append(System.lineSeparator());
        }
    }

    /** Where and on which thread something happened to a buffer; the frames are resolved only when reported. */
    private static final class Site {
        private final String what;
        private final String thread;
        private final Throwable trace;

        private Site(String what) {
            this.what = what;
            this.thread = Thread.currentThread().getName();
            this.trace = new Throwable(what);
        }

        /**
         * @return the stack, innermost first, without this pool's own frames, stopping where a
         *     test method was called by reflection, at most {@link #MAX_FRAMES}
         */
        private List<StackTraceElement> frames() {
            StackTraceElement[] all = trace.getStackTrace();
            int start = 0;
            while (start < all.length && isOwnFrame(all[start])) {
                start++;
            }
            int end = start;
            while (end < all.length && end - start < MAX_FRAMES && !isHarnessFrame(all[end])) {
                end++;
            }
            return List.of(all).subList(start, end);
        }

        /** @return whether the frame is the reflective call of a test method: what lies beyond is the test engine */
        private static boolean isHarnessFrame(StackTraceElement frame) {
            String name = frame.getClassName();
            return name.startsWith("jdk.internal.reflect.") || name.startsWith("java.lang.reflect.");
        }

        private static boolean isOwnFrame(StackTraceElement frame) {
            String self = LeakTrackingByteBufferPool.class.getName();
            String name = frame.getClassName();
            return name.equals(self) || name.startsWith(self + "$");
        }

        private String describe() {
            List<StackTraceElement> frames = frames();
            return what + " by '" + thread + "' at " + (frames.isEmpty() ? "?" : frames.get(0));
        }
    }

    /** The reference count of a tracked buffer and, once it reached 0, where that happened. */
    private record State(int references, Site freedAt) {
    }

    /** One acquisition: its own reference count around the wrapped pool's buffer. */
    private final class TrackedBuffer implements RetainableByteBuffer {
        private final long id;
        private final RetainableByteBuffer buffer;
        private final int size;
        private final int capacity;
        private final boolean direct;
        private final Site acquiredAt;
        private final AtomicReference<State> state = new AtomicReference<>(new State(1, null));
        private final Queue<Site> history;

        private TrackedBuffer(long id, RetainableByteBuffer buffer, int size, boolean direct, Site acquiredAt) {
            this.id = id;
            this.buffer = buffer;
            this.size = size;
            this.capacity = buffer.capacity();
            this.direct = direct;
            this.acquiredAt = acquiredAt;
            this.history = recordHistory ? new ConcurrentLinkedQueue<>() : null;
        }

        @Override
        public ByteBuffer byteBuffer() {
            State current = state.get();
            if (current.references <= 0) {
                throw misuse(Misuse.Kind.ACCESS_AFTER_FREE, this, current.freedAt);
            }
            return buffer.byteBuffer();
        }

        @Override
        public boolean isDirect() {
            return direct;
        }

        @Override
        public void retain() {
            while (true) {
                State current = state.get();
                if (current.references <= 0) {
                    throw misuse(Misuse.Kind.RETAIN_AFTER_FREE, this, current.freedAt);
                }
                if (state.compareAndSet(current, new State(current.references + 1, null))) {
                    if (history != null) {
                        history.add(new Site("retained"));
                    }
                    return;
                }
            }
        }

        @Override
        public boolean release() {
            while (true) {
                State current = state.get();
                if (current.references <= 0) {
                    throw misuse(Misuse.Kind.OVER_RELEASE, this, current.freedAt);
                }
                boolean last = current.references == 1;
                Site site = last || history != null ? new Site(last ? "freed" : "released") : null;
                if (state.compareAndSet(current, new State(current.references - 1, last ? site : null))) {
                    if (history != null) {
                        history.add(site);
                    }
                    if (!last) {
                        return false;
                    }
                    outstanding.remove(id);
                    freed.increment();
                    buffer.release();
                    return true;
                }
            }
        }

        @Override
        public boolean isRetained() {
            return state.get().references > 1;
        }

        private Leak toLeak() {
            List<String> events = new ArrayList<>();
            if (history != null) {
                for (Site site : history) {
                    events.add(site.describe());
                }
            }
            return new Leak(id, size, capacity, direct, acquiredAt.thread, acquiredAt.frames(), List.copyOf(events));
        }

        private String describe() {
            return "#" + id + " " + (direct ? "direct" : "heap") + " buffer of " + size + " bytes (capacity " + capacity + ")";
        }

        @Override
        public String toString() {
            return "TrackedBuffer#" + id + "[r=" + state.get().references + "," + (direct ? "direct" : "heap") + "," + size + " bytes]";
        }
    }
}
