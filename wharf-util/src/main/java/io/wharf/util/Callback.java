package io.wharf.util;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * The completion of one asynchronous operation: exactly one of {@link #succeeded()} or
 * {@link #failed(Throwable)} is called, once, by whichever thread finished the operation.
 *
 * <p>Callbacks declare an {@link InvocationType}; code that completes a callback on a
 * selector thread may do so inline only when the callback is non-blocking. Implementations
 * that need "exactly once" under races (timeouts, aborts) guard it themselves; the
 * factories here do not add such a guard.
 */
public interface Callback extends Invocable {

    /** A callback that does nothing, in either mode. */
    Callback NOOP = new Callback() {
        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }

        @Override
        public String toString() {
            return "Callback.NOOP";
        }
    };

    /** The operation completed. */
    default void succeeded() {
    }

    /** The operation failed with {@code cause}. */
    default void failed(Throwable cause) {
    }

    /** @return a callback that runs {@code success} or hands the cause to {@code failure} */
    static Callback from(InvocationType type, Runnable success, Consumer<Throwable> failure) {
        Objects.requireNonNull(type);
        Objects.requireNonNull(success);
        Objects.requireNonNull(failure);
        return new Callback() {
            @Override
            public void succeeded() {
                success.run();
            }

            @Override
            public void failed(Throwable cause) {
                failure.accept(cause);
            }

            @Override
            public InvocationType invocationType() {
                return type;
            }

            @Override
            public String toString() {
                return "Callback@" + Integer.toHexString(hashCode()) + "[" + type + "]";
            }
        };
    }

    /** @return a blocking callback that runs {@code success} or hands the cause to {@code failure} */
    static Callback from(Runnable success, Consumer<Throwable> failure) {
        return from(InvocationType.BLOCKING, success, failure);
    }

    /** @return a non-blocking callback that completes {@code future} */
    static Callback from(CompletableFuture<?> future) {
        return from(InvocationType.NON_BLOCKING, () -> future.complete(null), future::completeExceptionally);
    }

    /**
     * @return a callback that runs {@code first} then completes {@code next}; a failure of
     *     {@code first} on success fails {@code next}. Its type is that of {@code next}
     *     combined with {@code first}'s, BLOCKING when {@code first} does not declare one.
     */
    static Callback then(Runnable first, Callback next) {
        return then(Invocable.typeOf(first), first, next);
    }

    /**
     * @return like {@link #then(Runnable, Callback)}, with {@code first} declared as {@code firstType}
     *     (for example NON_BLOCKING for {@code buffer::release})
     */
    static Callback then(InvocationType firstType, Runnable first, Callback next) {
        return from(firstType.combine(Invocable.typeOf(next)), () -> {
            try {
                first.run();
            } catch (Throwable x) {
                next.failed(x);
                return;
            }
            next.succeeded();
        }, next::failed);
    }

    /**
     * @return a callback that completes both {@code a} and {@code b}, in that order; {@code b}
     *     is completed even when {@code a} throws, and the first exception is rethrown with
     *     the second attached as suppressed. A null or {@link #NOOP} side is left out;
     *     combining two of them gives {@link #NOOP}.
     */
    static Callback combine(Callback a, Callback b) {
        if (a == null || a == NOOP) {
            return b == null ? NOOP : b;
        }
        if (b == null || b == NOOP) {
            return a;
        }
        return from(a.invocationType().combine(b.invocationType()),
            () -> completeBoth(a::succeeded, b::succeeded),
            cause -> completeBoth(() -> a.failed(cause), () -> b.failed(cause)));
    }

    /** Runs both, the second even when the first throws; rethrows the first exception. */
    private static void completeBoth(Runnable first, Runnable second) {
        Throwable failure = null;
        try {
            first.run();
        } catch (Throwable x) {
            failure = x;
        }
        try {
            second.run();
        } catch (Throwable x) {
            if (failure == null) {
                failure = x;
            } else if (failure != x) {
                failure.addSuppressed(x);
            }
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure != null) {
            // Only a sneaky throw gets a checked exception out of a Runnable.
            throw new IllegalStateException("A combined callback threw " + failure, failure);
        }
    }

    /**
     * A callback that is also a {@link CompletableFuture}, for code that wants to wait
     * ({@code get()}) or compose. Non-blocking: completing a future never blocks.
     */
    class Completable extends CompletableFuture<Void> implements Callback {
        @Override
        public void succeeded() {
            complete(null);
        }

        /**
         * Waits until the operation completes, for blocking views over asynchronous ones (output
         * streams, hand-overs). Never on a selector thread.
         *
         * @param what what is waited for, for the message of an interruption ("writing the response")
         * @throws java.io.IOException the failure: an {@code IOException} as it is, any other wrapped
         * @throws java.io.InterruptedIOException when the thread is interrupted, naming {@code what}
         */
        public void await(String what) throws java.io.IOException {
            try {
                get();
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                java.io.InterruptedIOException interrupted = new java.io.InterruptedIOException("interrupted while " + what);
                interrupted.initCause(x);
                throw interrupted;
            } catch (java.util.concurrent.ExecutionException x) {
                Throwable cause = x.getCause();
                throw cause instanceof java.io.IOException io ? io : new java.io.IOException(what + " failed: " + cause, cause);
            }
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
