package io.wharf.util.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlotStackTest {

    @Test
    void popsInReverseOrderOfPushWhenAlone() {
        SlotStack<String> stack = new SlotStack<>(3);
        assertNull(stack.pop());
        assertTrue(stack.push("a"));
        assertTrue(stack.push("b"));
        assertTrue(stack.push("c"));
        assertEquals(3, stack.size());
        assertEquals("c", stack.pop());
        assertEquals("b", stack.pop());
        assertTrue(stack.push("d"));
        assertEquals("d", stack.pop());
        assertEquals("a", stack.pop());
        assertNull(stack.pop());
        assertEquals(0, stack.size());
    }

    @Test
    void refusesPushWhenFull() {
        SlotStack<Integer> stack = new SlotStack<>(2);
        assertTrue(stack.push(1));
        assertTrue(stack.push(2));
        assertFalse(stack.push(3));
        assertEquals(2, stack.size());
        assertEquals(2, stack.capacity());
    }

    @Test
    void zeroCapacityHoldsNothing() {
        SlotStack<Integer> stack = new SlotStack<>(0);
        assertFalse(stack.push(1));
        assertNull(stack.pop());
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> new SlotStack<>(-1));
        SlotStack<Integer> stack = new SlotStack<>(1);
        assertThrows(IllegalArgumentException.class, () -> stack.push(null));
    }

    @ParameterizedTest(name = "{0} tokens, {1} slots")
    @CsvSource({"48, 32", "3, 4", "2, 1", "8, 2"})
    void concurrentPushAndPopNeverHandsOneItemToTwoThreads(int tokens, int slots) throws Exception {
        SlotStack<Integer> stack = new SlotStack<>(slots);
        TokenCirculation.run(8, tokens, 200_000, stack::push, stack::pop, stack::size);
    }
}
