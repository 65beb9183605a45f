package io.wharf.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * {@code ./wharf bench static [SECONDS] [ROUNDS] [WARMUP]}: static files of 4 KiB, 64 KiB and
 * 1 MiB (random bytes, written once to a temporary directory by this driver and deleted at the
 * end) served by Wharf's and Jetty 12.1's resource handlers ({@link StaticServers}, each in its
 * own JVM) and by nginx ({@link NginxChild#start(Path)}), each pinned to CPU 0, loaded by
 * {@code wrk -t1 -c16} (keep-alive) on CPU 1 for each file size: WARMUP seconds (default 5),
 * then SECONDS measured (default 10), for ROUNDS rounds (default 3) of Wharf, Jetty, nginx in
 * turn ({@link LoadComparison}). Before its load each server is asked once for each file, which
 * must come back whole. Prints every measurement (requests/s, body MB/s, server CPU and bytes
 * allocated per request), then the medians and the ratios Wharf/Jetty and Wharf/nginx.
 */
public final class StaticMacroBenchmark {

    static final List<String> SERVERS = List.of("wharf", "jetty", "nginx");
    static final int CONNECTIONS = 16;

    /** The files served: name and size. */
    record File(String name, int size) {
    }

    static final List<File> FILES = List.of(new File("4k.bin", 4 * 1024), new File("64k.bin", 64 * 1024), new File("1m.bin", 1024 * 1024));

    private StaticMacroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        ServerChild.pinDriver();
        System.out.println("static: wrk -t1 -c" + CONNECTIONS + ", " + warmup + " s warm-up (twice) + " + seconds + " s measured per file, " + rounds
            + " rounds, JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        Path directory = writeFiles(FILES);
        try {
            List<LoadComparison.Scenario> scenarios = FILES.stream()
                .map(file -> new LoadComparison.Scenario(label(file.size()), "/" + file.name(), CONNECTIONS, 1, file.size()))
                .toList();
            LoadComparison comparison = new LoadComparison(SERVERS, server -> start(server, directory), scenarios, warmup, seconds);
            List<LoadComparison.Measurement> measurements = comparison.run(rounds);
            comparison.printAll(measurements);
            comparison.printMedians(measurements);
        } finally {
            deleteTree(directory);
        }
    }

    /** @return a new temporary directory holding {@code files}, each of random bytes (the same bytes in every run), readable by all */
    static Path writeFiles(List<File> files) throws IOException {
        Path directory = Files.createTempDirectory("wharf-static");
        // nginx's worker may run as another user (nobody, when started by root): let it read the files.
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        Random random = new Random(20261121);
        for (File file : files) {
            byte[] bytes = new byte[file.size()];
            random.nextBytes(bytes);
            Path path = directory.resolve(file.name());
            Files.write(path, bytes);
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-r--r--"));
        }
        return directory;
    }

    /** Deletes {@code directory} and everything under it, if it is there (a server may have deleted its own). */
    static void deleteTree(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (var files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** @return {@code 4 KiB}, {@code 1 MiB}: a size for the tables */
    static String label(int size) {
        return size >= 1024 * 1024 ? size / (1024 * 1024) + " MiB" : size / 1024 + " KiB";
    }

    private static ServerUnderTest start(String server, Path directory) throws Exception {
        ServerUnderTest subject = server.equals("nginx") ? ServerUnderTest.of(NginxChild.start(directory))
            : ServerUnderTest.of(ServerChild.start(server + "-static", directory.toString()));
        try {
            check(server, subject.port());
            return subject;
        } catch (Exception x) {
            subject.close();
            throw x;
        }
    }

    /** Asks for each file once, on one keep-alive connection, and checks it comes back whole with 200. */
    private static void check(String server, int port) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            socket.setSoTimeout(10_000);
            for (File file : FILES) {
                HttpProbe.Response response = HttpProbe.exchange(socket.getInputStream(), socket.getOutputStream(),
                    HttpProbe.get("/" + file.name(), port));
                if (response.status() != 200 || response.contentLength() != file.size()) {
                    throw new IllegalStateException(server + " answered " + response.status() + " with " + response.contentLength()
                        + " bytes for " + file.name() + " (" + file.size() + " bytes)");
                }
            }
        }
    }
}
