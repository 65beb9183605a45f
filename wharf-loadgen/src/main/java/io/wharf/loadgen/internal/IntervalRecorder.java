package io.wharf.loadgen.internal;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * One series of latencies (µs, 1 to {@link Statistics#MAX_MICROS}) recorded by many threads and
 * taken once per reporting interval: an HdrHistogram {@link Recorder} whose two histograms are
 * made once and swapped, the one taken last handed back to the recorder at the next take. A
 * histogram of this range is about 190 KB; made anew each interval, it lived one interval, so
 * each young collection of the generator's JVM copied one per series, which lengthened the
 * generator's own pauses (and so the latencies it measures). Made once, both are tenured early
 * and no collection copies them again; they hold no references, so old ones cost no card
 * scanning either.
 *
 * <p><b>Threads.</b> {@link #record} from any thread, without locks; {@link #take} from the
 * reporting side, one caller at a time (the {@link IntervalReporter} is synchronized).
 */
final class IntervalRecorder {

    private final Recorder recorder = new Recorder(1, Statistics.MAX_MICROS, 3);
    /** The histogram the last {@link #take} returned, which the recorder fills next; null before the first. */
    private Histogram taken;

    void record(long micros) {
        recorder.recordValue(micros);
    }

    /**
     * @return the values recorded since the last call; valid until the next call, which reuses
     *     it: add it to a total or read it, never keep it
     */
    Histogram take() {
        taken = recorder.getIntervalHistogram(taken);
        return taken;
    }
}
