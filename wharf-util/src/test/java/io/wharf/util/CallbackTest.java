package io.wharf.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class CallbackTest {

    private final List<String> events = new CopyOnWriteArrayList<>();

    private Callback recording(String name, InvocationType type) {
        return Callback.from(type, () -> events.add(name + " succeeded"), cause -> events.add(name + " failed " + cause.getMessage()));
    }

    @Test
    void noopDoesNothingAndNeverBlocks() {
        Callback.NOOP.succeeded();
        Callback.NOOP.failed(new IOException("ignored"));
        assertEquals(InvocationType.NON_BLOCKING, Callback.NOOP.invocationType());
        assertEquals("Callback.NOOP", Callback.NOOP.toString());
    }

    @Test
    void fromRunsTheMatchingFunctionAndDeclaresItsType() {
        Callback callback = recording("a", InvocationType.EITHER);
        callback.succeeded();
        callback.failed(new IOException("broken pipe"));
        assertEquals(List.of("a succeeded", "a failed broken pipe"), events);
        assertEquals(InvocationType.EITHER, callback.invocationType());
        assertTrue(callback.toString().endsWith("[EITHER]"), callback.toString());

        assertEquals(InvocationType.BLOCKING, Callback.from(() -> { }, cause -> { }).invocationType());
        assertThrows(NullPointerException.class, () -> Callback.from(null, () -> { }, cause -> { }));
        assertThrows(NullPointerException.class, () -> Callback.from(InvocationType.BLOCKING, null, cause -> { }));
        assertThrows(NullPointerException.class, () -> Callback.from(InvocationType.BLOCKING, () -> { }, null));
        assertThrows(NullPointerException.class, () -> Callback.from((CompletableFuture<?>) null));
    }

    @Test
    void fromAFutureCompletesIt() throws Exception {
        CompletableFuture<String> success = new CompletableFuture<>();
        Callback callback = Callback.from(success);
        assertEquals(InvocationType.NON_BLOCKING, callback.invocationType());
        callback.succeeded();
        assertTrue(success.isDone());
        assertEquals(null, success.get());

        CompletableFuture<String> failure = new CompletableFuture<>();
        IOException cause = new IOException("reset");
        Callback.from(failure).failed(cause);
        assertSame(cause, assertThrows(ExecutionException.class, failure::get).getCause());
    }

    @Test
    void thenRunsFirstThenCompletesNext() {
        Callback next = recording("next", InvocationType.NON_BLOCKING);
        assertEquals(InvocationType.BLOCKING, Callback.then(() -> events.add("first"), next).invocationType(),
            "an undeclared first step may block");
        Callback callback = Callback.then(InvocationType.NON_BLOCKING, () -> events.add("first"), next);
        assertEquals(InvocationType.NON_BLOCKING, callback.invocationType());
        callback.succeeded();
        assertEquals(List.of("first", "next succeeded"), events);

        events.clear();
        callback.failed(new IOException("eof"));
        assertEquals(List.of("next failed eof"), events, "first runs only on success");
    }

    @Test
    void thenFailsNextWhenFirstThrows() {
        Callback next = recording("next", InvocationType.BLOCKING);
        Callback.then(() -> {
            throw new IllegalStateException("first broke");
        }, next).succeeded();
        assertEquals(List.of("next failed first broke"), events);
    }

    @Test
    void combineCompletesBothInOrder() {
        Callback both = Callback.combine(recording("a", InvocationType.NON_BLOCKING), recording("b", InvocationType.NON_BLOCKING));
        both.succeeded();
        both.failed(new IOException("x"));
        assertEquals(List.of("a succeeded", "b succeeded", "a failed x", "b failed x"), events);
    }

    @Test
    void combineDeclaresTheCombinedType() {
        for (InvocationType a : InvocationType.values()) {
            for (InvocationType b : InvocationType.values()) {
                Callback combined = Callback.combine(Callback.from(a, () -> { }, x -> { }), Callback.from(b, () -> { }, x -> { }));
                assertEquals(a.combine(b), combined.invocationType(), a + " with " + b);
            }
        }
    }

    @Test
    void combineWithNothingIsTheOther() {
        Callback a = recording("a", InvocationType.BLOCKING);
        assertSame(a, Callback.combine(a, null));
        assertSame(a, Callback.combine(null, a));
        assertSame(a, Callback.combine(a, Callback.NOOP));
        assertSame(a, Callback.combine(Callback.NOOP, a));
        assertSame(Callback.NOOP, Callback.combine(null, null), "combining nothing gives NOOP, never null");
        assertSame(Callback.NOOP, Callback.combine(Callback.NOOP, null));
    }

    @Test
    void combineCompletesTheSecondEvenWhenTheFirstThrows() {
        IllegalStateException firstFailure = new IllegalStateException("a threw");
        Callback a = Callback.from(InvocationType.NON_BLOCKING, () -> {
            throw firstFailure;
        }, cause -> {
            throw firstFailure;
        });
        Callback b = recording("b", InvocationType.NON_BLOCKING);
        Callback both = Callback.combine(a, b);

        assertSame(firstFailure, assertThrows(IllegalStateException.class, both::succeeded));
        assertSame(firstFailure, assertThrows(IllegalStateException.class, () -> both.failed(new IOException("x"))));
        assertEquals(List.of("b succeeded", "b failed x"), events);
    }

    @Test
    void combineKeepsBothFailuresWhenBothThrow() {
        IllegalStateException firstFailure = new IllegalStateException("a threw");
        IllegalArgumentException secondFailure = new IllegalArgumentException("b threw");
        Callback a = Callback.from(() -> {
            throw firstFailure;
        }, cause -> { });
        Callback b = Callback.from(() -> {
            throw secondFailure;
        }, cause -> { });

        IllegalStateException thrown = assertThrows(IllegalStateException.class, Callback.combine(a, b)::succeeded);
        assertSame(firstFailure, thrown);
        assertEquals(List.of(secondFailure), List.of(thrown.getSuppressed()));
    }

    @Test
    void combineOfCallbacksThrowingTheSameExceptionThrowsIt() {
        IllegalStateException shared = new IllegalStateException("shared");
        Callback thrower = Callback.from(() -> {
            throw shared;
        }, cause -> { });
        Callback other = Callback.from(() -> {
            throw shared;
        }, cause -> { });
        assertSame(shared, assertThrows(IllegalStateException.class, Callback.combine(thrower, other)::succeeded));
        assertEquals(0, shared.getSuppressed().length);
    }

    @Test
    void completableIsAFutureThatNeverBlocks() throws Exception {
        Callback.Completable success = new Callback.Completable();
        assertEquals(InvocationType.NON_BLOCKING, success.invocationType());
        assertFalse(success.isDone());
        success.succeeded();
        assertEquals(null, success.get(1, TimeUnit.SECONDS));

        Callback.Completable failure = new Callback.Completable();
        IOException cause = new IOException("timeout");
        failure.failed(cause);
        assertTrue(failure.isCompletedExceptionally());
        assertSame(cause, assertThrows(ExecutionException.class, failure::get).getCause());

        // It composes like any future.
        Callback.Completable first = new Callback.Completable();
        CompletableFuture<String> then = first.thenApply(ignored -> "done");
        first.succeeded();
        assertEquals("done", then.get(1, TimeUnit.SECONDS));
    }
}
