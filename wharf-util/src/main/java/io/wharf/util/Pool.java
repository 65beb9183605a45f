package io.wharf.util;

import java.util.Collection;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A bounded pool of reusable objects — client connections, deflaters, anything costly to
 * create — each held in an {@link Entry}. The pool hands entries out and takes them back; it
 * never creates, opens or closes a pooled object itself: its owner does.
 *
 * <p><b>Threads.</b> Every method may be called by any thread at any time. Acquire and
 * release are lock-free and, once the pool is filled, allocation-free.
 *
 * <p><b>Ownership.</b> The caller that acquired an entry may use its pooled object until it
 * releases the entry. The owner creates pooled objects (through {@link #reserve()} and
 * {@link Entry#enable(Object, boolean)}, or {@link #acquire(Function)}) and closes one when the
 * pool says its entry is gone: {@link Entry#remove()} returned true, {@link Entry#release()}
 * returned false, or {@link #terminate()} returned it. An entry removed while in use is told
 * to its remover <em>and</em> to its holders as they release, so closing must tolerate a
 * second call (connections and deflaters do).
 *
 * <p><b>Life of an entry.</b>
 * <pre>
 *  reserve() ──► RESERVED ──enable(p, false)──► IDLE ◄──release()──┐
 *                   │   └──enable(p, true)───► IN_USE ◄─acquire()──┘ (up to maxMultiplex holders)
 *                   │                            │
 *                   └──────── remove() ───────► REMOVED ◄── remove(), terminate(),
 *                                                           or the last release of a worn-out entry
 * </pre>
 * A removed entry is never handed out again; it leaves the pool when its last holder releases.
 * An entry acquired {@link #getMaxUsage() maxUsage} times is worn out: not handed out again,
 * and removed by its last release, which returns false.
 *
 * @param <T> the type of the pooled objects
 */
public interface Pool<T> {

    /** Where {@link #acquire()} starts its scan of the entries; the scan wraps around all of them. */
    enum Strategy {
        /** Always the first entry: keeps few entries hot and lets the others idle out. */
        FIRST,
        /** A random entry: spreads threads without any shared write. */
        RANDOM,
        /** The thread's id modulo the entry count: a thread tends to get the same entry. */
        THREAD_ID,
        /**
         * The next position of the calling thread's cursor, to spread acquisitions evenly over
         * the entries (a connection pool spreads requests over its connections this way).
         * Threads share a few cursors, each on its own cache line, picked by thread id, rather
         * than one counter that every acquire would write. What that guarantees: a thread alone
         * on its cursor, in particular the only thread acquiring, starts at each entry in strict
         * rotation, wrapping around; under concurrency every thread keeps rotating, so each
         * entry gets an even share on average, but two threads may start at the same entry at
         * the same time (the scan then moves the second one on).
         */
        ROUND_ROBIN
    }

    /**
     * Takes a free slot for an entry whose pooled object is not ready yet (a connection being
     * opened). The entry is invisible to {@link #acquire()} until it is
     * {@link Entry#enable(Object, boolean) enabled}; remove it if creating its object fails.
     *
     * @return the reserved entry, or null when the pool is full or terminated
     */
    Entry<T> reserve();

    /**
     * Acquires an enabled entry that has room for one more holder and is not worn out.
     *
     * @return the acquired entry, or null when none is available now
     */
    Entry<T> acquire();

    /**
     * Acquires an entry; when none is available, reserves one, creates its object with
     * {@code creator} on the calling thread and returns it enabled and acquired.
     *
     * <p>When {@code creator} throws or returns null, the reserved entry is removed (and the
     * exception rethrown). When the pool is terminated between the reserve and the enable, the
     * new object is closed if it is {@link AutoCloseable} and null is returned.
     *
     * @param creator makes the pooled object for a newly reserved entry
     * @return the acquired entry, or null when the pool is full, terminated or no object was made
     */
    Entry<T> acquire(Function<Entry<T>, T> creator);

    /**
     * Gives back one hold of {@code entry}; the same as {@code entry.release()}.
     *
     * @return true when the entry stays in the pool; false when it is removed (the caller then
     *     stops using the pooled object and closes it)
     * @throws IllegalArgumentException when the entry belongs to another pool
     * @throws IllegalStateException when the entry is not held
     */
    boolean release(Entry<T> entry);

    /**
     * Removes {@code entry}; the same as {@code entry.remove()}.
     *
     * @return true for the one call that removed it
     * @throws IllegalArgumentException when the entry belongs to another pool
     */
    boolean remove(Entry<T> entry);

    /** @return whether {@link #terminate()} was called */
    boolean isTerminated();

    /**
     * Stops the pool: from now on acquire and reserve return null. Every entry still present is
     * removed (those in use leave when their holders release, whose release returns false).
     *
     * @return the entries this call removed, so that the owner closes their pooled objects;
     *     reserved ones have none yet, and their creator learns of the termination from
     *     {@link Entry#enable(Object, boolean)} returning false
     */
    Collection<Entry<T>> terminate();

    /** @return the number of entries in the pool: reserved, idle, in use, or removed but still held */
    int size();

    /** @return the most entries the pool holds at once */
    int getMaxSize();

    /**
     * @return the number of holders an entry may have at once when neither the entry nor a
     *     per-object function of the pool says otherwise
     */
    int getMaxMultiplex();

    /** @return how many times an entry may be acquired in total; 0 for no limit */
    int getMaxUsage();

    /** @return the number of entries reserved and not yet enabled */
    int getReservedCount();

    /** @return the number of enabled entries that nobody holds */
    int getIdleCount();

    /** @return the number of entries held at least once and not removed */
    int getInUseCount();

    /** @return the number of entries removed while in use, still waiting for their holders to release */
    int getRemovedCount();

    /** @return the entries now in the pool, as a snapshot (an entry may change state meanwhile) */
    Stream<Entry<T>> stream();

    /**
     * One slot of a {@link Pool}: a pooled object and the counts that say who may use it.
     * Any thread may call any method; the holder of an entry calls {@link #release()} once per
     * successful acquire.
     *
     * @param <T> the type of the pooled object
     */
    interface Entry<T> {

        /** The state of an entry; see the diagram in {@link Pool}. */
        enum State {
            /** Holds a slot; its object is being created; invisible to acquire. */
            RESERVED,
            /** Enabled, nobody holds it. */
            IDLE,
            /** Enabled, held by at least one caller. */
            IN_USE,
            /** Removed: never handed out again (it may still have holders finishing their work). */
            REMOVED
        }

        /**
         * Makes a reserved entry available, with {@code pooled} as its object; when
         * {@code acquire} is true the entry is also acquired by the caller, atomically, so that
         * no other thread can take it first.
         *
         * @return true when enabled; false when the entry was removed meanwhile (for example
         *     the pool was terminated), in which case the caller closes {@code pooled}
         * @throws IllegalStateException when the entry was already enabled (or an enable was tried)
         * @throws NullPointerException when {@code pooled} is null
         */
        boolean enable(T pooled, boolean acquire);

        /** @return the pooled object, or null while the entry is reserved */
        T getPooled();

        /**
         * Gives back one hold of this entry.
         *
         * @return true when the entry stays in the pool; false when it is removed (it was removed
         *     while held, or this release was the last hold of a worn-out entry): the caller then
         *     stops using the pooled object and closes it
         * @throws IllegalStateException when nobody holds the entry
         */
        boolean release();

        /**
         * Removes this entry: it is never handed out again, and leaves the pool at once when
         * nobody holds it, otherwise when its last holder releases.
         *
         * @return true for the one call that removed it; false when it was already removed
         */
        boolean remove();

        /** @return the state now */
        State getState();

        /** @return whether the entry is reserved and not yet enabled */
        default boolean isReserved() {
            return getState() == State.RESERVED;
        }

        /** @return whether the entry is enabled and nobody holds it */
        default boolean isIdle() {
            return getState() == State.IDLE;
        }

        /** @return whether the entry is held and not removed */
        default boolean isInUse() {
            return getState() == State.IN_USE;
        }

        /** @return whether the entry was removed */
        default boolean isRemoved() {
            return getState() == State.REMOVED;
        }

        /** @return how many times the entry was acquired in total */
        int getUsageCount();

        /** @return how many callers hold the entry now */
        int getMultiplexCount();

        /**
         * @return how many callers may hold this entry at once: the value set on the entry, else
         *     the pool's function of the pooled object, else the pool's {@link Pool#getMaxMultiplex()}
         */
        int getMaxMultiplex();

        /**
         * Sets how many callers may hold this entry at once, for example when an HTTP/2
         * connection learns its peer's SETTINGS_MAX_CONCURRENT_STREAMS. Lowering it below the
         * current holder count lets nobody new in until enough holders release; 0 lets nobody
         * new in at all.
         *
         * @throws IllegalArgumentException when {@code maxMultiplex} is negative
         */
        void setMaxMultiplex(int maxMultiplex);
    }
}
