package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The encoding of an entry's state word: each field is independent of the others. */
class EntryStateTest {

    @Test
    void reservedStateIsEmptyAndCannotBeAcquired() {
        long state = EntryState.RESERVED;
        assertFalse(EntryState.isEnabled(state));
        assertFalse(EntryState.isRemoved(state));
        assertEquals(0, EntryState.holders(state));
        assertEquals(0, EntryState.usage(state));
        assertFalse(EntryState.canAcquire(state, 10, 0));
    }

    @Test
    void enableOptionallyCountsTheFirstHold() {
        long idle = EntryState.enabled(false);
        assertTrue(EntryState.isAvailable(idle));
        assertEquals(0, EntryState.holders(idle));
        assertEquals(0, EntryState.usage(idle));
        long held = EntryState.enabled(true);
        assertTrue(EntryState.isAvailable(held));
        assertEquals(1, EntryState.holders(held));
        assertEquals(1, EntryState.usage(held));
    }

    @Test
    void acquireAndReleaseMoveHoldersAndUsageOnly() {
        long state = EntryState.enabled(false);
        for (int i = 1; i <= 1000; i++) {
            state = EntryState.acquired(state);
        }
        assertEquals(1000, EntryState.holders(state));
        assertEquals(1000, EntryState.usage(state));
        for (int i = 0; i < 400; i++) {
            state = EntryState.released(state);
        }
        assertEquals(600, EntryState.holders(state));
        assertEquals(1000, EntryState.usage(state));
        assertTrue(EntryState.isAvailable(state));
    }

    @Test
    void holdersMayReachTheLargestIntWithoutTouchingUsageOrFlags() {
        long state = EntryState.enabled(false) + EntryState.MAX_COUNT;
        assertEquals(EntryState.MAX_COUNT, EntryState.holders(state));
        assertEquals(0, EntryState.usage(state));
        assertTrue(EntryState.isAvailable(state));
        assertFalse(EntryState.canAcquire(state, Integer.MAX_VALUE, 0));
    }

    @Test
    void usageSaturatesInsteadOfOverflowingIntoTheFlags() {
        long state = EntryState.enabled(false);
        long maxUsage = (long) EntryState.MAX_COUNT << 31;
        state |= maxUsage;
        assertEquals(EntryState.MAX_COUNT, EntryState.usage(state));
        long acquired = EntryState.acquired(state);
        assertEquals(EntryState.MAX_COUNT, EntryState.usage(acquired));
        assertEquals(1, EntryState.holders(acquired));
        assertTrue(EntryState.isAvailable(acquired));
        assertFalse(EntryState.isRemoved(acquired));
    }

    @Test
    void acquireIsRefusedAtEitherLimit() {
        long state = EntryState.acquired(EntryState.acquired(EntryState.enabled(false)));
        assertTrue(EntryState.canAcquire(state, 3, 0));
        assertFalse(EntryState.canAcquire(state, 2, 0), "multiplex limit");
        assertFalse(EntryState.canAcquire(state, 3, 2), "usage limit");
        assertTrue(EntryState.canAcquire(state, 3, 3));
        assertTrue(EntryState.isWornOut(state, 2));
        assertFalse(EntryState.isWornOut(state, 0), "0 is no limit");
    }

    @Test
    void removedKeepsTheCountsAndIsNeverAcquirable() {
        long state = EntryState.removed(EntryState.acquired(EntryState.enabled(false)));
        assertTrue(EntryState.isRemoved(state));
        assertFalse(EntryState.isAvailable(state));
        assertEquals(1, EntryState.holders(state));
        assertEquals(1, EntryState.usage(state));
        assertFalse(EntryState.canAcquire(state, 100, 0));
        long released = EntryState.released(state);
        assertTrue(EntryState.isRemoved(released));
        assertEquals(0, EntryState.holders(released));
        assertEquals("removed,holders=0,usage=1", EntryState.toString(released));
        assertFalse(EntryState.canAcquire(EntryState.removed(EntryState.RESERVED), 1, 0));
    }
}
