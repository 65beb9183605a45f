package io.wharf.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The client side of the {@code client} macro run, in its own JVM so that its CPU time and
 * allocation are its own. {@code ClientProcess wharf|jetty|jdk URI CONCURRENCY}: starts that
 * client, prints {@code READY}, then answers commands on standard input:
 * {@code RUN SECONDS} keeps CONCURRENCY requests to URI in flight for SECONDS (see
 * {@link ClientLoad}) and prints
 * {@code DONE REQUESTS n ERRORS e CPU_NS c ALLOCATED_BYTES a}: the requests completed, the
 * process CPU time and the bytes allocated by all threads during the run. End of input stops it.
 */
public final class ClientProcess {

    private ClientProcess() {
    }

    public static void main(String[] args) throws Exception {
        URI uri = URI.create(args[1]);
        int concurrency = Integer.parseInt(args[2]);
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (ClientLoad load = ClientLoad.of(args[0], concurrency)) {
            System.out.println("READY");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                String[] words = line.trim().split("\\s+");
                if (words.length != 2 || !words[0].equals("RUN")) {
                    System.out.println("UNKNOWN " + line);
                    System.out.flush();
                    continue;
                }
                long cpu = os.getProcessCpuTime();
                long allocated = threads.getTotalThreadAllocatedBytes();
                ClientLoad.Counts counts = load.run(uri, concurrency, Integer.parseInt(words[1]));
                System.out.println("DONE REQUESTS " + counts.requests() + " ERRORS " + counts.errors()
                    + " CPU_NS " + (os.getProcessCpuTime() - cpu) + " ALLOCATED_BYTES " + (threads.getTotalThreadAllocatedBytes() - allocated));
                System.out.flush();
            }
        }
    }
}
