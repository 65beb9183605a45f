package io.wharf.util;

import static io.wharf.util.InvocationType.BLOCKING;
import static io.wharf.util.InvocationType.EITHER;
import static io.wharf.util.InvocationType.NON_BLOCKING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

class InvocableTest {

    @Test
    void invocationTypesCombine() {
        InvocationType[][] table = {
            // this,        other,        combined
            {BLOCKING, BLOCKING, BLOCKING},
            {BLOCKING, NON_BLOCKING, BLOCKING},
            {BLOCKING, EITHER, BLOCKING},
            {NON_BLOCKING, BLOCKING, BLOCKING},
            {NON_BLOCKING, NON_BLOCKING, NON_BLOCKING},
            {NON_BLOCKING, EITHER, EITHER},
            {EITHER, BLOCKING, BLOCKING},
            {EITHER, NON_BLOCKING, EITHER},
            {EITHER, EITHER, EITHER},
        };
        assertEquals(InvocationType.values().length * InvocationType.values().length, table.length);
        for (InvocationType[] row : table) {
            assertEquals(row[2], row[0].combine(row[1]), row[0] + " with " + row[1]);
        }
    }

    @Test
    void typeOfAnythingUnknownIsBlocking() {
        assertEquals(BLOCKING, Invocable.typeOf("a string"));
        assertEquals(BLOCKING, Invocable.typeOf(null));
        assertEquals(BLOCKING, Invocable.typeOf((Runnable) () -> { }));
        assertEquals(BLOCKING, new Invocable() { }.invocationType());
        assertEquals(NON_BLOCKING, Invocable.typeOf(Callback.NOOP));
    }

    @Test
    void invokeNonBlockingSetsTheModeForTheTaskOnly() {
        List<Boolean> seen = new ArrayList<>();
        assertFalse(Invocable.isNonBlockingInvocation());
        Invocable.invokeNonBlocking(() -> seen.add(Invocable.isNonBlockingInvocation()));
        assertEquals(List.of(true), seen);
        assertFalse(Invocable.isNonBlockingInvocation());
    }

    @Test
    void nestedInvocationsKeepTheModeUntilTheOutermostReturns() {
        List<String> seen = new ArrayList<>();
        Invocable.invokeNonBlocking(() -> {
            seen.add("outer " + Invocable.isNonBlockingInvocation());
            Invocable.invokeNonBlocking(() -> seen.add("inner " + Invocable.isNonBlockingInvocation()));
            seen.add("after inner " + Invocable.isNonBlockingInvocation());
        });
        seen.add("outside " + Invocable.isNonBlockingInvocation());
        assertEquals(List.of("outer true", "inner true", "after inner true", "outside false"), seen);
    }

    @Test
    void theModeIsResetWhenTheTaskThrows() {
        assertThrows(IllegalStateException.class, () -> Invocable.invokeNonBlocking(() -> {
            throw new IllegalStateException("task failed");
        }));
        assertFalse(Invocable.isNonBlockingInvocation());

        // A throw from a nested task leaves the outer one still in non-blocking mode.
        AtomicBoolean afterNestedThrow = new AtomicBoolean();
        Invocable.invokeNonBlocking(() -> {
            try {
                Invocable.invokeNonBlocking(() -> {
                    throw new IllegalStateException("nested failed");
                });
            } catch (IllegalStateException expected) {
                afterNestedThrow.set(Invocable.isNonBlockingInvocation());
            }
        });
        assertTrue(afterNestedThrow.get());
        assertFalse(Invocable.isNonBlockingInvocation());
    }

    @Test
    void theModeBelongsToTheThread() throws Exception {
        AtomicBoolean otherThreadSaw = new AtomicBoolean(true);
        Invocable.invokeNonBlocking(() -> {
            Thread other = new Thread(() -> otherThreadSaw.set(Invocable.isNonBlockingInvocation()));
            other.start();
            try {
                other.join(5000);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        });
        assertFalse(otherThreadSaw.get());
    }

    @Test
    void taskRunsTheRunnableAndDeclaresItsType() {
        AtomicBoolean ran = new AtomicBoolean();
        Invocable.Task task = Invocable.task(EITHER, () -> ran.set(true));
        assertEquals(EITHER, task.invocationType());
        assertEquals(EITHER, Invocable.typeOf(task));
        task.run();
        assertTrue(ran.get());
        assertTrue(task.toString().contains("[EITHER,"), task.toString());
        assertThrows(NullPointerException.class, () -> Invocable.task(null, () -> { }));
        assertThrows(NullPointerException.class, () -> Invocable.task(NON_BLOCKING, null));
    }
}
