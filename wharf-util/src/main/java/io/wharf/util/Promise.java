package io.wharf.util;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The result of one asynchronous operation that yields a value: exactly one of
 * {@link #succeeded(Object)} or {@link #failed(Throwable)} is called, once.
 *
 * @param <T> the type of the result
 */
public interface Promise<T> extends Invocable {

    /** The operation completed with {@code result}. */
    default void succeeded(T result) {
    }

    /** The operation failed with {@code cause}. */
    default void failed(Throwable cause) {
    }

    /** @return a promise that hands the result or the cause to the given functions */
    static <T> Promise<T> from(InvocationType type, Consumer<T> success, Consumer<Throwable> failure) {
        Objects.requireNonNull(type);
        Objects.requireNonNull(success);
        Objects.requireNonNull(failure);
        return new Promise<>() {
            @Override
            public void succeeded(T result) {
                success.accept(result);
            }

            @Override
            public void failed(Throwable cause) {
                failure.accept(cause);
            }

            @Override
            public InvocationType invocationType() {
                return type;
            }
        };
    }

    /** @return a non-blocking promise that completes {@code future} */
    static <T> Promise<T> from(CompletableFuture<? super T> future) {
        return from(InvocationType.NON_BLOCKING, future::complete, future::completeExceptionally);
    }

    /** @return a callback that completes this promise with {@code result} on success */
    default Callback toCallback(T result) {
        return Callback.from(invocationType(), () -> succeeded(result), this::failed);
    }

    /**
     * A promise that is also a {@link CompletableFuture}, to wait on or compose.
     *
     * @param <T> the type of the result
     */
    class Completable<T> extends CompletableFuture<T> implements Promise<T> {
        @Override
        public void succeeded(T result) {
            complete(result);
        }

        @Override
        public void failed(Throwable cause) {
            completeExceptionally(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
