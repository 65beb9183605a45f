package io.wharf.util.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One volatile {@code long} state word with about a cache line of padding on each side, to be
 * extended by objects whose state word many threads compare-and-set (the pool's entries), so
 * that two such objects allocated side by side do not share a cache line.
 *
 * <p>The padding relies on HotSpot laying out a superclass's fields before its subclass's:
 * left padding, then the word, then right padding, then the subclass's own (read-mostly)
 * fields. Any thread may read or compare-and-set the word.
 */
public abstract class PaddedStateWord extends StateWordValue {

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(StateWordValue.class, "state", long.class);
        } catch (ReflectiveOperationException x) {
            throw new ExceptionInInitializerError(x);
        }
    }

    long rightPadding01;
    long rightPadding02;
    long rightPadding03;
    long rightPadding04;
    long rightPadding05;
    long rightPadding06;
    long rightPadding07;

    /** @param initial the first value of the word */
    protected PaddedStateWord(long initial) {
        state = initial;
    }

    /** @return the current value, with volatile semantics */
    protected final long state() {
        return state;
    }

    /** @return whether the word was {@code expected} and is now {@code next} */
    protected final boolean compareAndSetState(long expected, long next) {
        return STATE.compareAndSet(this, expected, next);
    }
}

/** The padding before the word. */
abstract class StateWordLeftPadding {
    long leftPadding01;
    long leftPadding02;
    long leftPadding03;
    long leftPadding04;
    long leftPadding05;
    long leftPadding06;
    long leftPadding07;
}

/** The word itself, between the two paddings. */
abstract class StateWordValue extends StateWordLeftPadding {
    volatile long state;
}
