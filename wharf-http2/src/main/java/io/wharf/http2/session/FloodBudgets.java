package io.wharf.http2.session;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * What a peer may make one HTTP/2 session do per second before it is cut off with
 * ENHANCE_YOUR_CALM: one {@link RateBudget} per kind of {@link Flood}, each sized by the
 * {@link SessionConfiguration}. Frames that cost us work but change nothing the application
 * sees (a PING to answer, an empty DATA frame, a PRIORITY frame, a reset stream) are what the
 * floods of CVE-2019-9512, 9514, 9515, 9518 and the rapid reset of CVE-2023-44487 send; each
 * is spent here, and the session fails
 * the connection with {@link #exceeded} when one is over budget.
 *
 * <p>Thread-safe: each budget is (spent on the reading thread, and for resets the session
 * sends, on the application's threads, without the session's lock). No I/O.
 */
final class FloodBudgets {

    /** A kind of frame or event a peer could flood a session with. */
    enum Flood {
        /** Streams the peer opened then reset, or made us reset (rapid reset). */
        RESETS("resets"),
        /** SETTINGS frames, each of which we must acknowledge. */
        SETTINGS("SETTINGS frames"),
        /** PING frames, each of which we must answer. */
        PINGS("PING frames"),
        /** DATA frames with no content and no END_STREAM. */
        EMPTY_DATA("empty DATA frames"),
        /** PRIORITY frames (ignored, RFC 9113 section 5.3.2). */
        PRIORITIES("PRIORITY frames"),
        /** Frames of an unknown type (ignored, RFC 9113 section 4.1). */
        UNKNOWN_FRAMES("unknown frames");

        private final String label;

        Flood(String label) {
            this.label = label;
        }

        /** @return what is counted, as the GOAWAY's debug data says it */
        String label() {
            return label;
        }
    }

    private static final Flood[] FLOODS = Flood.values();

    private final RateBudget[] budgets = new RateBudget[FLOODS.length];

    FloodBudgets(SessionConfiguration config) {
        this(config, System::nanoTime);
    }

    /** @param nanoClock the time in nanoseconds, as {@link System#nanoTime()} (tests pass their own) */
    FloodBudgets(SessionConfiguration config, LongSupplier nanoClock) {
        for (Flood flood : FLOODS) {
            budgets[flood.ordinal()] = new RateBudget(flood.label(), max(config, flood), TimeUnit.SECONDS.toNanos(1), nanoClock);
        }
    }

    private static int max(SessionConfiguration config, Flood flood) {
        return switch (flood) {
            case RESETS -> config.getResetBudget();
            case SETTINGS -> config.getSettingsBudget();
            case PINGS -> config.getPingBudget();
            case EMPTY_DATA -> config.getEmptyDataBudget();
            case PRIORITIES -> config.getPriorityBudget();
            case UNKNOWN_FRAMES -> config.getUnknownFrameBudget();
        };
    }

    /** Counts one event of {@code flood}. @return whether it is within the budget; false once over it for this second */
    boolean spend(Flood flood) {
        return budgets[flood.ordinal()].spend();
    }

    /** @return the GOAWAY's reason once {@code flood} is over budget */
    String exceeded(Flood flood) {
        RateBudget budget = budgets[flood.ordinal()];
        return "more than " + budget.max() + " " + budget.name() + " per second";
    }

    @Override
    public String toString() {
        return java.util.Arrays.toString(budgets);
    }
}
