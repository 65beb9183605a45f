package io.wharf.util.internal;

/**
 * The per-thread flag behind {@link io.wharf.util.Invocable#invokeNonBlocking(Runnable)}:
 * set while the current thread runs an EITHER task that promised not to block. Kept here,
 * unexported, so that only that method can switch it.
 */
public final class NonBlockingMode {

    private static final ThreadLocal<Boolean> ACTIVE = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private NonBlockingMode() {
    }

    /** Runs {@code task} with the flag set, restoring it afterwards even on failure. */
    public static void run(Runnable task) {
        if (ACTIVE.get()) {
            task.run();
            return;
        }
        ACTIVE.set(Boolean.TRUE);
        try {
            task.run();
        } finally {
            ACTIVE.set(Boolean.FALSE);
        }
    }

    /** @return whether the current thread runs in non-blocking mode */
    public static boolean isActive() {
        return ACTIVE.get();
    }
}
