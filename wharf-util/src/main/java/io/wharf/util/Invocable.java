package io.wharf.util;

import io.wharf.util.internal.NonBlockingMode;

import java.util.Objects;

/**
 * Something that runs code on a thread it does not choose and declares its
 * {@link InvocationType}, so that schedulers know whether it may run inline.
 *
 * <p>The default type is {@link InvocationType#BLOCKING}: the safe answer when nothing
 * better is known. Callers that do not know what they hold ask {@link #typeOf(Object)}.
 */
public interface Invocable {

    /** @return how this may behave on the thread that invokes it */
    default InvocationType invocationType() {
        return InvocationType.BLOCKING;
    }

    /** @return the declared type of {@code o} when it is {@link Invocable}, else BLOCKING */
    static InvocationType typeOf(Object o) {
        return o instanceof Invocable invocable ? invocable.invocationType() : InvocationType.BLOCKING;
    }

    /**
     * Runs {@code task} on this thread in non-blocking mode: an {@link InvocationType#EITHER}
     * task that sees {@link #isNonBlockingInvocation()} true must not block.
     */
    static void invokeNonBlocking(Runnable task) {
        NonBlockingMode.run(task);
    }

    /** @return whether the current thread promised not to block (see {@link #invokeNonBlocking}) */
    static boolean isNonBlockingInvocation() {
        return NonBlockingMode.isActive();
    }

    /** A {@link Runnable} that declares its invocation type. */
    interface Task extends Runnable, Invocable {
    }

    /** @return a task of the given type that runs {@code runnable} */
    static Task task(InvocationType type, Runnable runnable) {
        Objects.requireNonNull(type);
        Objects.requireNonNull(runnable);
        return new Task() {
            @Override
            public void run() {
                runnable.run();
            }

            @Override
            public InvocationType invocationType() {
                return type;
            }

            @Override
            public String toString() {
                return "Task@" + Integer.toHexString(hashCode()) + "[" + type + "," + runnable + "]";
            }
        };
    }
}
