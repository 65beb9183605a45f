package io.wharf.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class PromiseTest {

    private final List<String> events = new CopyOnWriteArrayList<>();

    @Test
    void fromHandsOverTheResultOrTheCause() {
        Promise<Integer> promise = Promise.from(InvocationType.NON_BLOCKING, result -> events.add("got " + result), cause -> events.add("failed " + cause.getMessage()));
        promise.succeeded(42);
        promise.failed(new IOException("refused"));
        assertEquals(List.of("got 42", "failed refused"), events);
        assertEquals(InvocationType.NON_BLOCKING, promise.invocationType());

        assertThrows(NullPointerException.class, () -> Promise.from(null, result -> { }, cause -> { }));
        assertThrows(NullPointerException.class, () -> Promise.from(InvocationType.BLOCKING, null, cause -> { }));
        assertThrows(NullPointerException.class, () -> Promise.from(InvocationType.BLOCKING, result -> { }, null));
        assertThrows(NullPointerException.class, () -> Promise.from((CompletableFuture<Object>) null));
    }

    @Test
    void fromAFutureCompletesIt() throws Exception {
        CompletableFuture<Object> future = new CompletableFuture<>();
        Promise<String> promise = Promise.from(future);
        assertEquals(InvocationType.NON_BLOCKING, promise.invocationType());
        promise.succeeded("connected");
        assertEquals("connected", future.get(1, TimeUnit.SECONDS));

        CompletableFuture<String> failed = new CompletableFuture<>();
        IOException cause = new IOException("unreachable");
        Promise.from(failed).failed(cause);
        assertSame(cause, assertThrows(ExecutionException.class, failed::get).getCause());
    }

    @Test
    void toCallbackCompletesThePromiseWithTheGivenResult() {
        Promise<String> promise = Promise.from(InvocationType.EITHER, result -> events.add("got " + result), cause -> events.add("failed " + cause.getMessage()));
        Callback callback = promise.toCallback("sent");
        assertEquals(InvocationType.EITHER, callback.invocationType());
        callback.succeeded();
        callback.failed(new IOException("lost"));
        assertEquals(List.of("got sent", "failed lost"), events);
    }

    @Test
    void completableIsAFuture() throws Exception {
        Promise.Completable<String> promise = new Promise.Completable<>();
        assertEquals(InvocationType.NON_BLOCKING, promise.invocationType());
        CompletableFuture<Integer> length = promise.thenApply(String::length);
        promise.succeeded("hello");
        assertEquals("hello", promise.get(1, TimeUnit.SECONDS));
        assertEquals(5, length.get(1, TimeUnit.SECONDS));

        Promise.Completable<String> failed = new Promise.Completable<>();
        IOException cause = new IOException("closed");
        failed.failed(cause);
        assertSame(cause, assertThrows(ExecutionException.class, failed::get).getCause());
    }
}
