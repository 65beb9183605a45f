package io.wharf.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts a {@link ServerProcess} in a child JVM (pinned to CPU 0 when {@code taskset} exists,
 * the driver having pinned itself to CPU 1) and talks to it line by line. The client macro run
 * starts a {@link ClientProcess} the same way ({@link #startClient}), pinned to CPU 1, the
 * server (nginx) having CPU 0; it has no port.
 */
final class ServerChild implements AutoCloseable {

    /**
     * The JVM options of every child: the same for Wharf and the peer, followed by any given in
     * {@code -Dwharf.bench.child.options} (split at spaces), for example a flight recording per
     * child: {@code -XX:StartFlightRecording=filename=/tmp/child-%p.jfr,settings=profile}.
     */
    static final List<String> JVM_OPTIONS = jvmOptions(System.getProperty("wharf.bench.child.options", ""));

    private static List<String> jvmOptions(String extra) {
        List<String> options = new ArrayList<>(List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"));
        if (!extra.isBlank()) {
            options.addAll(List.of(extra.trim().split("\\s+")));
        }
        return List.copyOf(options);
    }

    private final Process process;
    private final BufferedReader out;
    private final Writer in;
    private final int port;
    private final Map<Protocol, Integer> otherPorts = new EnumMap<>(Protocol.class);

    private ServerChild(Process process) throws IOException {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        String first = out.readLine();
        // The JVM's own log lines (such as a flight recording's start) come before the child's first word.
        while (first != null && first.startsWith("[")) {
            System.err.println(first);
            first = out.readLine();
        }
        if ("READY".equals(first)) {
            this.port = -1;
            return;
        }
        if (first == null || !first.startsWith("PORT ")) {
            throw new IOException("child JVM did not start: " + first);
        }
        // PORT n, then the further connectors' ports by protocol: PORT n H2C m H2 k
        String[] words = first.substring(5).trim().split("\\s+");
        this.port = Integer.parseInt(words[0]);
        for (int i = 1; i + 1 < words.length; i += 2) {
            otherPorts.put(Protocol.valueOf(words[i]), Integer.parseInt(words[i + 1]));
        }
    }

    /** @param arguments the server's mode and its arguments, as {@link ServerProcess} takes them */
    static ServerChild start(String... arguments) throws Exception {
        return start("0", ServerProcess.class, arguments);
    }

    /** @param arguments the client's kind, URI and concurrency, as {@link ClientProcess} takes them */
    static ServerChild startClient(String... arguments) throws Exception {
        return start("1", ClientProcess.class, arguments);
    }

    private static ServerChild start(String cpu, Class<?> main, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(pinnedTo(cpu));
        command.addAll(java(main.getName()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        return new ServerChild(process);
    }

    /** Whether {@link #pinDriver()} has pinned this JVM already (a run made of others calls it again). */
    private static boolean driverPinned;

    /** Pins this JVM's threads to CPU 1, when possible, so that the server has CPU 0 to itself; once. */
    static synchronized void pinDriver() {
        if (driverPinned) {
            return;
        }
        String taskset = taskset();
        if (taskset == null || Runtime.getRuntime().availableProcessors() < 2) {
            System.out.println("(not pinned: taskset missing or a single CPU)");
            return;
        }
        try {
            new ProcessBuilder(taskset, "-a", "-cp", "1", Long.toString(ProcessHandle.current().pid()))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor(5, TimeUnit.SECONDS);
            driverPinned = true;
        } catch (Exception x) {
            System.out.println("(not pinned: " + x + ")");
        }
    }

    /**
     * @return the start of a command line that pins the rest of it to CPU {@code cpu}
     *     ({@code taskset -c cpu}, which execs the command), empty when this machine has no taskset
     */
    static List<String> pinnedTo(String cpu) {
        String taskset = taskset();
        return taskset == null ? List.of() : List.of(taskset, "-c", cpu);
    }

    /** @return the command line of a child JVM like this one running {@code mainClass}: this JVM's java, {@link #JVM_OPTIONS}, this class path */
    static List<String> java(String mainClass) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        return command;
    }

    /** @return the path of {@code taskset}, or null when this machine has none */
    static String taskset() {
        for (String candidate : List.of("/usr/bin/taskset", "/bin/taskset")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        return null;
    }

    int port() {
        return port;
    }

    /** @return the port of the connector speaking {@code protocol}; throws when the server has none */
    int port(Protocol protocol) {
        if (protocol == Protocol.HTTP_1_1) {
            return port;
        }
        Integer other = otherPorts.get(protocol);
        if (other == null) {
            throw new IllegalStateException("the server has no " + protocol + " port, only " + port + " and " + otherPorts);
        }
        return other;
    }

    /** Sends a command and returns the answer line. */
    String command(String command) throws IOException {
        in.write(command + "\n");
        in.flush();
        String answer = out.readLine();
        if (answer == null) {
            throw new IOException("server child ended on " + command);
        }
        return answer;
    }

    /** @return the number after {@code key} in an answer such as {@code CPU_NS 123 ALLOCATED_BYTES 456} */
    static long field(String answer, String key) {
        String[] words = answer.trim().split("\\s+");
        for (int i = 0; i < words.length - 1; i++) {
            if (words[i].equals(key)) {
                return Long.parseLong(words[i + 1]);
            }
        }
        throw new IllegalArgumentException(key + " not in " + answer);
    }

    @Override
    public void close() throws Exception {
        in.close();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
