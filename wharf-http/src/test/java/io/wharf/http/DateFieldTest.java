package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class DateFieldTest {

    /** 1994-11-06T08:49:37Z. */
    private static final long EXAMPLE = 784_111_777_000L;

    private final AtomicLong millis = new AtomicLong(EXAMPLE);
    private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());

    @Test
    void answersTheSameFieldWithinOneSecond() {
        DateField dates = new DateField(clock);
        PreEncodedHttpField first = dates.get();
        assertSame(HttpHeader.DATE, first.getHeader());
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", first.getValue());
        ByteBuffer wire = ByteBuffer.allocate(64);
        first.putTo(wire);
        assertEquals("Date: Sun, 06 Nov 1994 08:49:37 GMT\r\n",
                new String(wire.array(), 0, wire.position(), StandardCharsets.ISO_8859_1));
        millis.set(EXAMPLE + 500);
        assertSame(first, dates.get());
        millis.set(EXAMPLE + 999);
        assertSame(first, dates.get());
    }

    @Test
    void answersANewFieldOnceTheSecondTurns() {
        DateField dates = new DateField(clock);
        PreEncodedHttpField first = dates.get();
        millis.set(EXAMPLE + 1000);
        PreEncodedHttpField second = dates.get();
        assertNotSame(first, second);
        assertEquals("Sun, 06 Nov 1994 08:49:38 GMT", second.getValue());
        assertSame(second, dates.get());
        millis.set(EXAMPLE + 61_000);
        assertEquals("Sun, 06 Nov 1994 08:50:38 GMT", dates.get().getValue());
    }

    @Test
    void keepsTheNewerFieldForAReaderOneSecondBehindButFollowsAClockSteppedBack() {
        DateField dates = new DateField(clock);
        millis.set(EXAMPLE + 1000);
        PreEncodedHttpField newer = dates.get();
        millis.set(EXAMPLE + 999);
        assertSame(newer, dates.get());
        millis.set(EXAMPLE - 3_600_000);
        assertEquals("Sun, 06 Nov 1994 07:49:37 GMT", dates.get().getValue());
        assertSame(dates.get(), dates.get());
    }

    @Test
    void tickingAnswersTheLastTickWithoutReadingTheClock() {
        DateField dates = new DateField(clock);
        millis.set(EXAMPLE + 250);
        assertEquals(750, dates.startTicking(), "the first tick is due at the next second");
        PreEncodedHttpField ticked = dates.get();
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", ticked.getValue());
        millis.set(EXAMPLE + 5_000);
        assertSame(ticked, dates.get(), "no tick yet: the last tick's field");
        assertEquals(1000, dates.tick());
        assertEquals("Sun, 06 Nov 1994 08:49:42 GMT", dates.get().getValue());
        millis.set(EXAMPLE + 5_999);
        assertEquals(1, dates.tick(), "a tick just before the turn asks for the next one a millisecond later");
    }

    @Test
    void tickingStopsWhenTheLastTickerStops() {
        DateField dates = new DateField(clock);
        dates.startTicking();
        dates.startTicking();
        millis.set(EXAMPLE + 2_000);
        dates.stopTicking();
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", dates.get().getValue(), "one ticker is left");
        dates.stopTicking();
        assertEquals("Sun, 06 Nov 1994 08:49:39 GMT", dates.get().getValue(), "the clock is read again");
        IllegalStateException unmatched = assertThrows(IllegalStateException.class, dates::stopTicking);
        assertTrue(unmatched.getMessage().contains("without a matching startTicking()"), unmatched.getMessage());
        assertEquals("Sun, 06 Nov 1994 08:49:39 GMT", dates.get().getValue(), "still reading the clock");
    }

    @Test
    void systemInstanceFollowsTheSystemClock() {
        long before = System.currentTimeMillis();
        long date = HttpDateFormat.parse(DateField.SYSTEM.get().getValue());
        long after = System.currentTimeMillis();
        assertTrue(date > before - 1000 && date <= after, "date " + date + " not between " + before + " and " + after);
    }

    @Test
    void threadsRacingAtEachTurnOfTheSecondAllGetTheOnePublishedField() throws Exception {
        int threads = 8;
        int seconds = 50;
        DateField dates = new DateField(clock);
        CyclicBarrier barrier = new CyclicBarrier(threads + 1);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Set<PreEncodedHttpField>>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(executor.submit(() -> {
                    List<Set<PreEncodedHttpField>> seen = new ArrayList<>();
                    for (int s = 0; s < seconds; s++) {
                        barrier.await(10, TimeUnit.SECONDS);
                        Set<PreEncodedHttpField> fields = Collections.newSetFromMap(new IdentityHashMap<>());
                        for (int i = 0; i < 1000; i++) {
                            fields.add(dates.get());
                        }
                        seen.add(fields);
                        barrier.await(10, TimeUnit.SECONDS);
                    }
                    return seen;
                }));
            }
            for (int s = 0; s < seconds; s++) {
                millis.set(EXAMPLE + s * 1000L + s % 1000);
                barrier.await(10, TimeUnit.SECONDS);
                barrier.await(10, TimeUnit.SECONDS);
            }
            PreEncodedHttpField previous = null;
            for (int s = 0; s < seconds; s++) {
                Set<PreEncodedHttpField> all = Collections.newSetFromMap(new IdentityHashMap<>());
                for (Future<List<Set<PreEncodedHttpField>>> result : results) {
                    all.addAll(result.get(10, TimeUnit.SECONDS).get(s));
                }
                assertEquals(1, all.size(), "fields published in second " + s);
                PreEncodedHttpField field = all.iterator().next();
                assertEquals(HttpDateFormat.format(EXAMPLE + s * 1000L), field.getValue());
                assertNotEquals(previous, field);
                previous = field;
            }
        } finally {
            executor.shutdownNow();
        }
    }
}
