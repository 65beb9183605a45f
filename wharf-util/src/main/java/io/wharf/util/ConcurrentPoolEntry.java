package io.wharf.util;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

import io.wharf.util.internal.EntryState;
import io.wharf.util.internal.PaddedStateWord;

/**
 * The entry of a {@link ConcurrentPool}: one slot index, the pooled object and the state word
 * (encoded by {@link EntryState}) that every acquire, release and remove compare-and-sets.
 * There is no lock: the compare-and-set of the state word is the only gate, whichever thread
 * and whichever path (scan or thread-local cache) tries it.
 *
 * <p>An entry object lives for one use of its slot: a removed entry stays removed forever and
 * the slot gets a new entry object when reserved again, so a stale reference can never acquire.
 * The call whose compare-and-set leaves the word removed with no holder frees the slot; that
 * happens exactly once.
 */
final class ConcurrentPoolEntry<T> extends PaddedStateWord implements Pool.Entry<T> {

    private static final VarHandle POOLED;
    private static final int NO_OVERRIDE = -1;

    static {
        try {
            POOLED = MethodHandles.lookup().findVarHandle(ConcurrentPoolEntry.class, "pooled", Object.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    private final ConcurrentPool<T> pool;
    private final int slot;
    private volatile T pooled;
    private volatile int maxMultiplex = NO_OVERRIDE;

    ConcurrentPoolEntry(ConcurrentPool<T> pool, int slot) {
        super(EntryState.RESERVED);
        this.pool = pool;
        this.slot = slot;
    }

    ConcurrentPool<T> pool() {
        return pool;
    }

    int slot() {
        return slot;
    }

    @Override
    public boolean enable(T pooled, boolean acquire) {
        Objects.requireNonNull(pooled, "pooled object to enable");
        if (!POOLED.compareAndSet(this, null, pooled)) {
            throw new IllegalStateException("entry is not reserved: enable was already called on " + this);
        }
        long enabled = EntryState.enabled(acquire);
        while (true) {
            long state = state();
            if (EntryState.isRemoved(state)) {
                return false;
            }
            if (compareAndSetState(state, enabled)) {
                return true;
            }
        }
    }

    /**
     * Tries to become one more holder. Called on the acquire path by any thread; allocates
     * nothing.
     *
     * @return whether the caller now holds this entry
     */
    boolean tryAcquire() {
        long state = state();
        if (!EntryState.isAvailable(state)) {
            return false;
        }
        // Enabled, so the pooled object the limit may depend on is visible.
        int limit = getMaxMultiplex();
        int maxUsage = pool.maxUsage;
        while (EntryState.canAcquire(state, limit, maxUsage)) {
            if (compareAndSetState(state, EntryState.acquired(state))) {
                return true;
            }
            state = state();
        }
        return false;
    }

    @Override
    public T getPooled() {
        return pooled;
    }

    @Override
    public boolean release() {
        return pool.release(this);
    }

    /**
     * Gives back one hold, retiring the entry when this was the last hold of a worn-out entry.
     *
     * @return whether the entry stays in the pool
     */
    boolean releaseHold() {
        int maxUsage = pool.maxUsage;
        while (true) {
            long state = state();
            if (EntryState.holders(state) == 0) {
                throw new IllegalStateException("release of an entry that nobody holds: " + this);
            }
            long next = EntryState.released(state);
            boolean last = EntryState.holders(next) == 0;
            if (last && EntryState.isWornOut(next, maxUsage)) {
                next = EntryState.removed(next);
            }
            if (compareAndSetState(state, next)) {
                if (!EntryState.isRemoved(next)) {
                    return true;
                }
                if (last) {
                    pool.freeSlot(this);
                }
                return false;
            }
        }
    }

    @Override
    public boolean remove() {
        while (true) {
            long state = state();
            if (EntryState.isRemoved(state)) {
                return false;
            }
            if (compareAndSetState(state, EntryState.removed(state))) {
                if (EntryState.holders(state) == 0) {
                    pool.freeSlot(this);
                }
                return true;
            }
        }
    }

    @Override
    public State getState() {
        return stateOf(state());
    }

    private static State stateOf(long state) {
        if (EntryState.isRemoved(state)) {
            return State.REMOVED;
        }
        if (!EntryState.isEnabled(state)) {
            return State.RESERVED;
        }
        return EntryState.holders(state) == 0 ? State.IDLE : State.IN_USE;
    }

    @Override
    public int getUsageCount() {
        return EntryState.usage(state());
    }

    @Override
    public int getMultiplexCount() {
        return EntryState.holders(state());
    }

    @Override
    public int getMaxMultiplex() {
        int override = maxMultiplex;
        return override == NO_OVERRIDE ? pool.maxMultiplexOf(pooled) : override;
    }

    @Override
    public void setMaxMultiplex(int maxMultiplex) {
        if (maxMultiplex < 0) {
            throw new IllegalArgumentException("maxMultiplex must not be negative, was " + maxMultiplex);
        }
        this.maxMultiplex = maxMultiplex;
    }

    @Override
    public String toString() {
        long state = state();
        int maxUsage = pool.maxUsage;
        return "Entry@" + Integer.toHexString(hashCode())
            + "[slot=" + slot
            + " " + stateOf(state)
            + " multiplex=" + EntryState.holders(state) + "/" + getMaxMultiplex()
            + " usage=" + EntryState.usage(state) + (maxUsage > 0 ? "/" + maxUsage : "")
            + " pooled=" + pooled + "]";
    }
}
