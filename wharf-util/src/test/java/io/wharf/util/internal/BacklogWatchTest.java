package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.wharf.util.internal.BacklogWatch.Look;

class BacklogWatchTest {

    @Test
    void oneClaimAtATime() {
        BacklogWatch watch = new BacklogWatch();
        JobQueue<String> jobs = new JobQueue<>();
        assertFalse(watch.isClaimed());
        assertTrue(watch.claim(jobs));
        assertTrue(watch.isClaimed());
        assertFalse(watch.claim(jobs), "a second claim while the first is held");
        watch.release();
        assertFalse(watch.isClaimed());
        assertTrue(watch.claim(jobs));
    }

    @Test
    void jobsQueuedAtTheClaimAndStillQueuedAtTheLookAreAStall() {
        BacklogWatch watch = new BacklogWatch();
        JobQueue<String> jobs = new JobQueue<>();
        jobs.offer("a");
        jobs.offer("b");
        watch.claim(jobs);
        jobs.poll();
        assertEquals(Look.STALLED, watch.look(jobs), "b was queued at the claim and still is");
        assertEquals(Look.STALLED, watch.look(jobs), "a stall does not move the mark");
    }

    @Test
    void aQueueThatDrainedWhatItHadMovesEvenWithNewJobs() {
        BacklogWatch watch = new BacklogWatch();
        JobQueue<String> jobs = new JobQueue<>();
        jobs.offer("a");
        jobs.offer("b");
        watch.claim(jobs);
        jobs.poll();
        jobs.poll();
        jobs.offer("c");
        assertEquals(Look.MOVING, watch.look(jobs), "a and b were taken; c is new");
        // The look moved the mark to c: c still queued at the next look is a stall.
        jobs.offer("d");
        assertEquals(Look.STALLED, watch.look(jobs));
        jobs.poll();
        jobs.poll();
        assertEquals(Look.EMPTY, watch.look(jobs));
    }

    @Test
    void anEmptyQueueIsEmptyWhateverTheMark() {
        BacklogWatch watch = new BacklogWatch();
        JobQueue<String> jobs = new JobQueue<>();
        watch.claim(jobs);
        assertEquals(Look.EMPTY, watch.look(jobs));
        jobs.offer("a");
        jobs.poll();
        assertEquals(Look.EMPTY, watch.look(jobs));
    }
}
