package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.wharf.http.DateField;
import io.wharf.http.HttpDateFormat;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A running server ticks the cached {@code Date} field once a second instead of reading the
 * clock per response: the field its responses carry must still follow the wall clock, turn
 * with the seconds, and once the server stops the cache reads the clock again.
 */
class DateHeaderTest {

    /** How late the scheduler's tick may be on a loaded machine before the test calls it wrong. */
    private static final long LATE_TICK_MILLIS = 2_000;
    private static final Pattern DATE = Pattern.compile("\r\nDate: ([^\r]+)\r\n");

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void responsesCarryTheCurrentSecondAsItTurns() throws Exception {
        try (LocalServer local = new LocalServer(leaks.pool())) {
            local.configuration.setSendDateHeader(true);
            local.start(Handler.of((request, response, callback) -> {
                Response.write(response, true, "ok", callback);
                return true;
            }));
            long first = dateNow(local);
            // The field turns to a later second while the server runs: it is ticked, not frozen.
            Deadline.await(() -> {
                try {
                    return dateNow(local) > first;
                } catch (Exception x) {
                    throw new AssertionError(x);
                }
            }, Duration.ofSeconds(10));
        }
        // Stopped: nothing ticks the shared cache (no other server runs in this test), so it reads the clock.
        long before = System.currentTimeMillis();
        long date = HttpDateFormat.parse(DateField.SYSTEM.get().getValue());
        assertTrue(date > before - 1000 && date <= System.currentTimeMillis(), "date " + date + " read at " + before);
    }

    /** @return the Date of a response just received, checked against the clock around it */
    private static long dateNow(LocalServer local) throws Exception {
        long before = System.currentTimeMillis();
        String response = local.get("GET / HTTP/1.1\nHost: x\nConnection: close\n\n");
        long after = System.currentTimeMillis();
        Matcher date = DATE.matcher(response);
        assertTrue(date.find(), () -> "no Date field in: " + response.substring(0, Math.min(300, response.length())));
        long millis = HttpDateFormat.parse(date.group(1));
        assertTrue(millis <= after && millis > before - 1000 - LATE_TICK_MILLIS,
                "Date " + date.group(1) + " (" + millis + ") for a response between " + before + " and " + after);
        return millis;
    }
}
