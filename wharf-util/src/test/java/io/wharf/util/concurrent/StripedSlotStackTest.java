package io.wharf.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StripedSlotStackTest {

    @Test
    void oneThreadGetsItsLastItemBackFirst() {
        StripedSlotStack<String> stack = new StripedSlotStack<>(64);
        assertTrue(stack.push("a"));
        assertTrue(stack.push("b"));
        assertEquals("b", stack.pop());
        assertEquals("a", stack.pop());
        assertNull(stack.pop());
    }

    @Test
    void fullStripeSpillsIntoTheOthersAndPopFindsEveryItem() {
        int capacity = 40;
        StripedSlotStack<Integer> stack = new StripedSlotStack<>(capacity);
        int stripes = stack.stripes();
        assertTrue(stripes >= 1 && Integer.bitCount(stripes) == 1, "a power of two: " + stripes);
        int slots = stripes * ((capacity + stripes - 1) / stripes);
        for (int i = 0; i < slots; i++) {
            assertTrue(stack.push(i), "push " + i + " of " + slots);
        }
        assertFalse(stack.push(-1));
        assertEquals(slots, stack.size());
        Set<Integer> popped = new HashSet<>();
        for (Integer item = stack.pop(); item != null; item = stack.pop()) {
            assertTrue(popped.add(item));
        }
        assertEquals(slots, popped.size());
        assertEquals(0, stack.size());
    }

    @Test
    void neverMoreStripesThanSlots() {
        StripedSlotStack<Integer> stack = new StripedSlotStack<>(1);
        assertEquals(1, stack.stripes());
        assertTrue(stack.push(1));
        assertFalse(stack.push(2));
        assertThrows(IllegalArgumentException.class, () -> new StripedSlotStack<>(0));
    }

    @ParameterizedTest(name = "{0} tokens, {1} slots")
    @CsvSource({"48, 32", "3, 4", "8, 2", "40, 1024"})
    void concurrentPushAndPopNeverHandsOneItemToTwoThreads(int tokens, int slots) throws Exception {
        StripedSlotStack<Integer> stack = new StripedSlotStack<>(slots);
        TokenCirculation.run(8, tokens, 200_000, stack::push, stack::pop, stack::size);
    }
}
