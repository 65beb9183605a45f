package io.wharf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Reading what the loadgen-cost run's generators said: the notes, and the runs that must not give a table. */
@Timeout(10)
class LoadToolTest {

    @TempDir
    Path directory;

    /** The fields of wharf-loadgen's JSON summary that are read, as it writes them. */
    private static final String WHARF_SUMMARY = """
        {"target": "http://127.0.0.1:1/plaintext", "targetRate": 20000, "achievedRate": 19998.7, "errors": 0,
         "behindSchedule": {"behind": false, "lateRequests": 12, "thresholdMicros": 10000}}
        """;

    @Test
    void wharfsSummaryGivesItsLateRequests() throws Exception {
        LoadTool tool = LoadTool.wharf("http://127.0.0.1:1/plaintext", Protocol.HTTP_1_1, 20_000, 16, 5, 15, 27, directory);
        Files.writeString(directory.resolve("wharf-HTTP_1_1.json"), WHARF_SUMMARY);
        assertEquals("12 requests sent late by its own count", tool.outcome().read(""));
        assertTrue(tool.command().containsAll(java.util.List.of("--rate", "20000", "--ramp-up", "5s", "--duration", "27s")), tool.command()::toString);
    }

    @Test
    void wharfsErrorsFailTheRun() throws Exception {
        LoadTool tool = LoadTool.wharf("https://127.0.0.1:1/plaintext", Protocol.H2, 20_000, 16, 5, 15, 27, directory);
        assertTrue(tool.command().contains("--insecure"));
        Files.writeString(directory.resolve("wharf-H2.json"), WHARF_SUMMARY.replace("\"errors\": 0", "\"errors\": 3"));
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> tool.outcome().read("output"));
        assertTrue(failure.getMessage().contains("3 errors"), failure.getMessage());
    }

    @Test
    void k6sSummaryGivesItsDroppedIterations() throws Exception {
        LoadTool tool = LoadTool.k6("http://127.0.0.1:1/plaintext", 20_000, 16, 5, 17, directory);
        Files.writeString(directory.resolve("k6-summary.txt"), "requests 339123 failed 0 dropped 1877\n");
        assertEquals("dropped iterations (rate not held): 1877", tool.outcome().read(""));
        assertTrue(Files.readString(directory.resolve("k6-load.js")).contains("constant-arrival-rate"));
    }

    @Test
    void k6sFailedRequestsFailTheRun() throws Exception {
        LoadTool tool = LoadTool.k6("http://127.0.0.1:1/plaintext", 20_000, 16, 5, 17, directory);
        Files.writeString(directory.resolve("k6-summary.txt"), "requests 339123 failed 7 dropped 0\n");
        assertThrows(IllegalStateException.class, () -> tool.outcome().read("output"));
    }

    @Test
    void k6WithoutSummaryFailsTheRun() throws Exception {
        LoadTool tool = LoadTool.k6("http://127.0.0.1:1/plaintext", 20_000, 16, 5, 17, directory);
        Files.writeString(directory.resolve("k6-summary.txt"), "");
        assertThrows(IllegalStateException.class, () -> tool.outcome().read("output"));
    }

    @Test
    void aProcessCpuTimeCountsWhatItsThreadsComputed() throws Exception {
        long pid = ProcessHandle.current().pid();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long before = ProcessCpu.nanos(pid);
        long threadBefore = threads.getCurrentThreadCpuTime();
        long sum = 0;
        // 200 ms of this thread's CPU, however busy the machine (bounded in wall time).
        long end = System.nanoTime() + 5_000_000_000L;
        while (threads.getCurrentThreadCpuTime() - threadBefore < 200_000_000L && System.nanoTime() < end) {
            sum += Long.numberOfTrailingZeros(System.nanoTime());
        }
        long computed = threads.getCurrentThreadCpuTime() - threadBefore;
        long counted = ProcessCpu.nanos(pid) - before;
        // The process counts at least what this thread computed, to the clock tick (10 ms) at each end.
        assertTrue(counted >= computed - 20_000_000L, computed + " ns computed, " + counted + " ns counted (sum " + sum + ")");
    }
}
