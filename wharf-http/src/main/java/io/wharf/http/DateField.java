package io.wharf.http;

import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The cached {@code Date} response field: {@link #get()} answers the pre-encoded
 * {@code Date: Sun, 06 Nov 1994 08:49:37 GMT} field for the current second of its clock, so a
 * server formats the date once a second rather than once a response.
 *
 * <p>Any number of threads call {@link #get()} at once, typically every generator thread for
 * every response; it takes no lock. The cache is one immutable pair of epoch second and
 * field behind an atomic reference. The first caller to see a new second formats a field and
 * publishes it with a compare-and-set; a caller that loses that race uses the winner's field
 * for the same second, so at most one field is published per second and every caller in
 * that second gets the same instance. (Racing callers may each format a candidate that is
 * then dropped; that costs a few short-lived objects at the turn of a second, never a
 * wrong date.) A caller that read its clock just before another caller published the next
 * second gets that newer field, at most one second ahead; a clock stepped back by more than a
 * second replaces the cache. No buffer is involved: the field's wire bytes are copied out by
 * {@link PreEncodedHttpField#putTo}.
 *
 * <p>In ticking mode ({@link #startTicking()}, which a running {@code Server} uses) the clock
 * is read once a second by the ticker instead of once a response; a late tick leaves the
 * previous second's field in place for as long as it is late.
 */
public final class DateField implements java.util.function.Supplier<HttpField> {

    /** The field cache on the system clock, shared by every server in the JVM. */
    public static final DateField SYSTEM = new DateField(InstantSource.system());

    private final InstantSource clock;
    private final AtomicReference<Second> current = new AtomicReference<>(new Second(Long.MIN_VALUE, null));
    /** How many callers tick this cache now ({@link #startTicking()}). */
    private final AtomicInteger tickers = new AtomicInteger();

    /** A cache reading {@code clock}; tests pass a clock they move by hand. */
    public DateField(InstantSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** @return the {@code Date} field for the clock's current second */
    @Override
    public PreEncodedHttpField get() {
        if (tickers.get() > 0) {
            // Something publishes each second as it turns (tick): no clock read per response.
            return current.get().field;
        }
        return read(clock.millis());
    }

    /**
     * Starts ticking mode, until the matching {@link #stopTicking()}: the caller promises to
     * call {@link #tick()} at each turn of the second, and {@link #get()} meanwhile answers the
     * last second published without reading the clock (about 20 ns saved per response). Several
     * callers may tick the same cache; it ticks while any of them does.
     *
     * @return milliseconds until the clock's next second, when the first tick is due
     */
    public long startTicking() {
        long due = tick();
        tickers.incrementAndGet();
        return due;
    }

    /** Ends one caller's ticking mode; when no caller is left, {@link #get()} reads the clock again. */
    public void stopTicking() {
        if (tickers.getAndUpdate(count -> Math.max(0, count - 1)) == 0) {
            throw new IllegalStateException("stopTicking() without a matching startTicking()");
        }
    }

    /**
     * Reads the clock and publishes the field for its current second.
     *
     * @return milliseconds until the clock's next second, when the next tick is due (at least 1)
     */
    public long tick() {
        long millis = clock.millis();
        read(millis);
        return 1000L - Math.floorMod(millis, 1000L);
    }

    private PreEncodedHttpField read(long millis) {
        long epochSecond = Math.floorDiv(millis, 1000L);
        Second cached = current.get();
        long behind = cached.epochSecond - epochSecond;
        if (behind == 0 || behind == 1) {
            return cached.field;
        }
        Second fresh = new Second(epochSecond,
                new PreEncodedHttpField(HttpHeader.DATE, HttpDateFormat.format(epochSecond * 1000L)));
        if (current.compareAndSet(cached, fresh)) {
            return fresh.field;
        }
        Second winner = current.get();
        return winner.epochSecond == epochSecond ? winner.field : fresh.field;
    }

    /** One second of the clock and the field for it. */
    private record Second(long epochSecond, PreEncodedHttpField field) {
    }
}
