package io.wharf.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The CPU time a process (all its threads) has used so far, read from {@code /proc/<pid>/stat}
 * (utime + stime): how the macro runs measure processes that are not JVMs they can ask — nginx
 * ({@link NginxChild}) and the load generators of the {@code loadgen-cost} run. The kernel counts
 * in clock ticks ({@code getconf CLK_TCK}, 100 per second here), so a figure is exact to 10 ms.
 * Also the context switches of its threads, which is where much of a load generator's CPU goes.
 * Stateless; any thread.
 */
final class ProcessCpu {

    private static final long CLOCK_TICKS_PER_SECOND = clockTicks();

    private ProcessCpu() {
    }

    /** @return the CPU time, in nanoseconds, process {@code pid} has used so far */
    static long nanos(long pid) throws IOException {
        return ticks(pid) * 1_000_000_000L / CLOCK_TICKS_PER_SECOND;
    }

    /** utime + stime of one process, fields 14 and 15 of {@code /proc/<pid>/stat}, in clock ticks. */
    static long ticks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // fields[0] is field 3 (state), so field n is fields[n - 3].
        return Long.parseLong(fields[14 - 3]) + Long.parseLong(fields[15 - 3]);
    }

    /**
     * @return the context switches (voluntary and not) of the threads process {@code pid} has now,
     * summed from {@code /proc/<pid>/task/<tid>/status}: a thread that ended took its count with it
     */
    static long contextSwitches(long pid) throws IOException {
        long switches = 0;
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                            switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (java.nio.file.NoSuchFileException ended) {
                    // the thread ended while the tasks were listed
                }
            }
        }
        return switches;
    }

    private static long clockTicks() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String answer = new String(getconf.getInputStream().readAllBytes()).trim();
            getconf.waitFor(5, TimeUnit.SECONDS);
            return Long.parseLong(answer);
        } catch (Exception x) {
            return 100;
        }
    }
}
