package io.wharf.util.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A lock-free stack of threads parked until someone hands them a value: the idle workers of
 * the thread pool (handed a wake-up signal, or the watch of the backlog) and the reserved
 * threads (handed a task). Any thread may push its own {@link Waiter}, and any thread may
 * {@link #handOff} a value to the most recently parked waiter that still waits. It holds
 * threads and values only, no buffers.
 *
 * <p>Each waiter is a one-shot slot: it starts empty and its value is set once, by one
 * compare-and-set, either by a giver ({@link Waiter#give}) or by the waiting thread itself
 * when it gives up ({@link Waiter#cancel}). Whoever wins the compare-and-set decides: a value
 * handed is never lost (the waiter has to take it) and never taken twice (only one giver
 * wins). A cancelled waiter stays in the stack until a giver pops and discards it; waiters
 * are fresh objects for each wait, so a popped node is never pushed again and the
 * compare-and-set on the top cannot suffer from ABA.
 *
 * <p>Last in, first out on purpose: the most recently parked thread is the one whose cache is
 * warmest, and the ones at the bottom stay parked long enough to reach their idle timeout, so
 * that a set of threads shrinks to what the load needs.
 */
public final class ParkedThreads {

    /** The value a waiter holds once it gave up waiting. */
    public static final Object CANCELLED = new Signal("CANCELLED");

    private final AtomicReference<Waiter> top = new AtomicReference<>();

    /** Pushes {@code waiter}, which must be fresh (never pushed before). */
    public void push(Waiter waiter) {
        Waiter first;
        do {
            first = top.get();
            waiter.next = first;
        } while (!top.compareAndSet(first, waiter));
    }

    /** @return the most recently pushed waiter, removed, or null when there is none */
    public Waiter pop() {
        while (true) {
            Waiter first = top.get();
            if (first == null) {
                return null;
            }
            if (top.compareAndSet(first, first.next)) {
                return first;
            }
        }
    }

    /**
     * Pops waiters, discarding those that no longer wait, until one takes {@code value}.
     *
     * @return true when a waiter took the value; false when none waits, the value not taken
     */
    public boolean handOff(Object value) {
        Waiter waiter;
        while ((waiter = pop()) != null) {
            if (waiter.give(value)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Pops every waiter and hands each one {@code value} (used to tell all of them to stop).
     *
     * @return how many waiters took it
     */
    public int handToAll(Object value) {
        int given = 0;
        Waiter waiter;
        while ((waiter = pop()) != null) {
            if (waiter.give(value)) {
                given++;
            }
        }
        return given;
    }

    /** @return whether no waiter is in the stack right now (cancelled ones count as in it) */
    public boolean isEmpty() {
        return top.get() == null;
    }

    /** @return the threads whose waiters are in the stack and still wait, most recent first */
    public List<Thread> waitingThreads() {
        List<Thread> threads = new ArrayList<>();
        for (Waiter waiter = top.get(); waiter != null; waiter = waiter.next) {
            if (waiter.value() == null) {
                threads.add(waiter.thread);
            }
        }
        return threads;
    }

    @Override
    public String toString() {
        return "ParkedThreads@" + Integer.toHexString(hashCode()) + "{waiting=" + waitingThreads().size() + "}";
    }

    /**
     * One wait of one thread: created and awaited by the waiting thread, given a value by
     * another. The value is set at most once.
     */
    public static final class Waiter {
        private static final VarHandle VALUE;

        static {
            try {
                VALUE = MethodHandles.lookup().findVarHandle(Waiter.class, "value", Object.class);
            } catch (ReflectiveOperationException x) {
                throw new ExceptionInInitializerError(x);
            }
        }

        private final Thread thread;
        @SuppressWarnings("unused") // accessed through VALUE
        private volatile Object value;
        /** Written before the push publishes this waiter, read after a pop: no need to be volatile. */
        private Waiter next;

        /** A waiter for the current thread. */
        public Waiter() {
            this.thread = Thread.currentThread();
        }

        /** @return the thread that waits */
        public Thread thread() {
            return thread;
        }

        /** @return the value given, {@link #CANCELLED}, or null while still waiting */
        public Object value() {
            return VALUE.getAcquire(this);
        }

        /**
         * Gives {@code value} to the waiting thread and wakes it, unless the waiter already
         * holds a value (given by another or cancelled).
         *
         * @return whether this call gave the value
         */
        public boolean give(Object value) {
            if (value == null) {
                throw new NullPointerException("A waiter is given a value, not null");
            }
            if (VALUE.compareAndSet(this, null, value)) {
                LockSupport.unpark(thread);
                return true;
            }
            return false;
        }

        /**
         * Called by the waiting thread when it stops waiting.
         *
         * @return true when it cancelled; false when a value was given first, which it must take
         */
        public boolean cancel() {
            return VALUE.compareAndSet(this, null, CANCELLED);
        }

        /**
         * Parks the waiting thread until it is given a value, the timeout passes or the thread
         * is interrupted (its interrupt status is left set). Does not cancel.
         *
         * @param timeoutNanos how long to wait at most; {@link Long#MAX_VALUE} waits without limit
         * @return the value given, or null when none was given in time
         */
        public Object await(long timeoutNanos) {
            boolean timed = timeoutNanos != Long.MAX_VALUE;
            long deadline = timed ? System.nanoTime() + timeoutNanos : 0;
            while (true) {
                Object value = value();
                if (value != null) {
                    return value;
                }
                if (Thread.currentThread().isInterrupted()) {
                    return null;
                }
                if (timed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return null;
                    }
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
            }
        }

        @Override
        public String toString() {
            return "Waiter@" + Integer.toHexString(hashCode()) + "{" + thread.getName() + "," + value() + "}";
        }
    }

    /** A marker value that is not a task: a wake-up, a stop order, a cancellation. */
    public record Signal(String name) {
        @Override
        public String toString() {
            return name;
        }
    }
}
