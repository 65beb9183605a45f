package io.wharf.testing;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test fixture: a real peer (nginx, tinyproxy, microsocks) run as a child process on loopback
 * ports, its configuration and log in the test's temporary directory, stopped by
 * {@link #close()}. The peers are installed by {@code scripts/install-peers}, which
 * {@code ./wharf test} runs; a missing one fails the test when {@code CI=true} and skips it
 * otherwise, naming the tool. Used by the test's thread only.
 */
public final class PeerProcess implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private final String name;
    private final Process process;
    private final Path log;

    private PeerProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * @return the executable {@code tool}, looked for on the PATH and in the sbin directories
     *     (fails in CI, skips the test elsewhere, when it is missing)
     */
    public static Path require(String tool) {
        List<String> directories = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        directories.addAll(List.of("/usr/sbin", "/usr/local/sbin", "/sbin"));
        for (String directory : directories) {
            Path candidate = Path.of(directory.isEmpty() ? "." : directory, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        String message = tool + " is not installed; run scripts/install-peers " + tool + " (./wharf test does)";
        if ("true".equals(System.getenv("CI"))) {
            fail(message);
        }
        assumeTrue(false, message);
        throw new AssertionError(message);
    }

    /** @return a loopback port free right now */
    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** @return whether {@code ::1} can be bound here (an nginx then listens there too, for "localhost") */
    public static boolean ipv6Loopback() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
            return true;
        } catch (IOException x) {
            return false;
        }
    }

    /**
     * Starts {@code command}, its output in {@code directory/name.log}, and waits until it
     * accepts connections on each of {@code ports} of 127.0.0.1.
     */
    public static PeerProcess start(String name, Path directory, List<String> command, int... ports) throws Exception {
        Path log = directory.resolve(name + ".log");
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        PeerProcess peer = new PeerProcess(name, process, log);
        try {
            for (int port : ports) {
                peer.awaitListening(port);
            }
        } catch (Throwable x) {
            peer.close();
            throw x;
        }
        return peer;
    }

    /** @return what the peer printed so far */
    public String log() throws IOException {
        return Files.readString(log);
    }

    private void awaitListening(int port) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                fail(name + " exited with " + process.exitValue() + ": " + log());
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() - deadline > 0) {
                    fail(name + " did not listen on " + port + " within " + WAIT + ": " + log());
                }
                // Polls every 20 ms at most; returns early when the peer exits.
                process.waitFor(20, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    @Override
    public String toString() {
        return name + "[pid " + process.pid() + "]";
    }
}
