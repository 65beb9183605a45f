package io.wharf.loadgen.cli;

import java.io.Console;
import java.io.PrintStream;
import java.util.Locale;

import io.wharf.loadgen.LoadListener;

/**
 * What {@code ./wharf load} shows while it runs: on a terminal, one line rewritten each interval
 * (elapsed, rate, in flight, errors, p50 and p99 corrected); anywhere, a warning line for each
 * interval in which the generator fell behind its schedule, with how far. Called on the
 * generator's reporting thread.
 */
final class ProgressLine implements LoadListener {

    private final PrintStream progress;
    private final PrintStream warnings;
    private final boolean terminal;
    private final String unit;
    private boolean pending;

    ProgressLine(PrintStream progress, PrintStream warnings, boolean terminal) {
        this(progress, warnings, terminal, "req");
    }

    /** @param unit what the rate counts: {@code req} (requests), {@code msg} (a chat run's messages) */
    ProgressLine(PrintStream progress, PrintStream warnings, boolean terminal, String unit) {
        this.progress = progress;
        this.warnings = warnings;
        this.terminal = terminal;
        this.unit = unit;
    }

    /** @return whether standard output is an interactive terminal (not a pipe or a file) */
    static boolean stdoutIsTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            // Console.isTerminal() (Java 22) tells a redirected stream apart; before it, a console means a terminal.
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException x) {
            return true;
        }
    }

    @Override
    public synchronized void onInterval(IntervalReport report) {
        if (!report.behind().isZero()) {
            end();
            warnings.printf(Locale.ROOT, "WARNING: %.1f s: the generator is %.1f ms behind its schedule%n",
                    report.elapsed().toMillis() / 1000.0, report.behind().toNanos() / 1e6);
        }
        if (terminal) {
            progress.printf(Locale.ROOT, "\r%6.1f s  %9.1f %s/s  %6d in flight  %6d errors  p50 %9.3f ms  p99 %9.3f ms ",
                    report.elapsed().toMillis() / 1000.0, report.rate(), unit, report.inFlight(), report.errors(),
                    report.p50Micros() / 1000.0, report.p99Micros() / 1000.0);
            progress.flush();
            pending = true;
        }
    }

    /** Ends the progress line, if one is showing, so that what follows starts on a line of its own. */
    synchronized void end() {
        if (pending) {
            progress.println();
            pending = false;
        }
    }
}
