package io.wharf.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nginx as the third server of the {@code http}, {@code static}, {@code h2} and
 * {@code tls-handshakes} macro runs: one worker process, no access log, listening on a free
 * loopback port, either answering {@code /plaintext} and {@code /json} by {@code return 200}
 * ({@link #start()}; with h2c and TLS ports too, {@link #startHttp2}) or serving the
 * files of a directory with {@code sendfile on} ({@link #start(Path)}), started as a child process pinned to CPU 0, its configuration and runtime
 * files in a temporary directory owned by this object and deleted by {@link #close()}. Its CPU
 * time is read from {@code /proc/<pid>/stat} (utime + stime) of the master and its workers;
 * nginx has no allocation counter comparable to a JVM's. The hello-world configurations also
 * serve nginx's request counter ({@code stub_status}) at {@value #STATUS_PATH}, which the
 * {@code loadgen-cost} run reads to count the requests a load generator made, whichever it is.
 * Called from the macro's driver thread.
 */
final class NginxChild implements AutoCloseable {

    /** Where nginx's {@code stub_status} page is, beside {@code /plaintext} and {@code /json}. */
    static final String STATUS_PATH = "/nginx-status";

    private static final Pattern STATUS_COUNTS =
        Pattern.compile("server accepts handled requests\\s+\\d+\\s+\\d+\\s+(\\d+)");

    private final Path directory;
    private final Process process;
    private final int port;
    private final Map<Protocol, Integer> otherPorts;
    private long cpuMark;

    private NginxChild(Path directory, Process process, int port, Map<Protocol, Integer> otherPorts) {
        this.directory = directory;
        this.process = process;
        this.port = port;
        this.otherPorts = otherPorts;
    }

    private static final String HELLO = """
        location /plaintext {
          default_type text/plain;
          return 200 "Hello, World!";
        }
        location /json {
          default_type application/json;
          return 200 '{"message":"Hello, World!"}';
        }
        location = /nginx-status {
          stub_status;
        }
        """;

    /** Starts nginx answering {@code /plaintext} and {@code /json} like {@link HelloServers}. */
    static NginxChild start() throws Exception {
        return start(HELLO, Map.of());
    }

    /**
     * Starts nginx answering like {@link HelloServers} as {@link Http2Servers} do: on three ports,
     * HTTP/1.1, h2c only (prior knowledge: nginx 1.22's {@code listen ... http2} without
     * {@code ssl}) and TLS with ALPN offering {@code h2} and {@code http/1.1}, with
     * {@code certificate}, TLS 1.2 and 1.3 (nginx 1.22's default list lacks 1.3) and no TLS
     * session cache (nginx's default; its session tickets stay on, as the JVMs' do).
     */
    static NginxChild startHttp2(BenchCertificate certificate) throws Exception {
        Map<Protocol, Integer> ports = Map.of(Protocol.H2C, freePort(), Protocol.H2, freePort());
        String servers = """
            listen 127.0.0.1:%d http2;
            listen 127.0.0.1:%d ssl http2;
            ssl_certificate %s;
            ssl_certificate_key %s;
            ssl_protocols TLSv1.2 TLSv1.3;
            """.formatted(ports.get(Protocol.H2C), ports.get(Protocol.H2), certificate.certificatePem(), certificate.keyPem());
        return start(servers + HELLO, ports);
    }

    /**
     * Starts nginx serving the files under {@code root}, like {@link StaticServers}: sendfile on
     * (nginx's built-in default is off; the configuration Debian ships turns it on), no
     * {@code open_file_cache} (nginx's default: each request opens the file), ETags on (its default).
     */
    static NginxChild start(Path root) throws Exception {
        return start("""
            location / {
              root %s;
              sendfile on;
              default_type application/octet-stream;
            }
            """.formatted(root.toAbsolutePath()), Map.of());
    }

    /** @param otherPorts the ports {@code locations} listens on besides the HTTP/1.1 one */
    private static NginxChild start(String locations, Map<Protocol, Integer> otherPorts) throws Exception {
        String nginx = find();
        Path directory = Files.createTempDirectory("wharf-nginx");
        int port = freePort();
        Path config = directory.resolve("nginx.conf");
        Files.writeString(config, configuration(directory, port, locations));
        List<String> command = new ArrayList<>(ServerChild.pinnedTo("0"));
        command.addAll(List.of(nginx, "-p", directory.toString(), "-c", config.toString(), "-e", "stderr"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        NginxChild child = new NginxChild(directory, process, port, otherPorts);
        try {
            child.awaitListening();
        } catch (Exception x) {
            child.close();
            throw x;
        }
        return child;
    }

    /** Keep-alive requests per connection are not limited, like the JVM servers (nginx's default is 1,000). */
    private static String configuration(Path directory, int port, String locations) {
        return """
            worker_processes 1;
            daemon off;
            pid %1$s/nginx.pid;
            error_log stderr warn;
            events {
              worker_connections 4096;
            }
            http {
              access_log off;
              keepalive_requests 100000000;
              keepalive_timeout 300s;
              client_body_temp_path %1$s/client_body;
              proxy_temp_path %1$s/proxy;
              fastcgi_temp_path %1$s/fastcgi;
              uwsgi_temp_path %1$s/uwsgi;
              scgi_temp_path %1$s/scgi;
              server {
                listen 127.0.0.1:%2$d;
            %3$s
              }
            }
            """.formatted(directory, port, locations.indent(4).stripTrailing());
    }

    private static String find() {
        for (String candidate : List.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("nginx is not installed (looked in /usr/sbin, /usr/local/sbin, /usr/bin)");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Waits (up to 10 s) until nginx accepts connections and its worker is running. */
    private void awaitListening() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("nginx exited with " + process.exitValue() + " (its errors are above)");
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                if (process.toHandle().children().findAny().isPresent()) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("nginx did not listen on port " + port + " within 10 s");
            }
            Thread.sleep(50);
        }
    }

    int port() {
        return port;
    }

    /** @return the port nginx speaks {@code protocol} on; throws when it has none */
    int port(Protocol protocol) {
        if (protocol == Protocol.HTTP_1_1) {
            return port;
        }
        Integer other = otherPorts.get(protocol);
        if (other == null) {
            throw new IllegalStateException("this nginx has no " + protocol + " port");
        }
        return other;
    }

    /** Remembers the CPU time of nginx's processes so far. */
    void mark() throws IOException {
        cpuMark = cpuNanos();
    }

    /** @return the CPU time, in nanoseconds, nginx's processes used since {@link #mark()} */
    long cpuSinceMark() throws IOException {
        return cpuNanos() - cpuMark;
    }

    private long cpuNanos() throws IOException {
        long nanos = ProcessCpu.nanos(process.pid());
        for (ProcessHandle worker : process.toHandle().children().toList()) {
            nanos += ProcessCpu.nanos(worker.pid());
        }
        return nanos;
    }

    /**
     * @return the requests nginx has read since it started, from its {@code stub_status} page
     * (this request included: two readings differ by the requests between them plus one)
     */
    long requestsServed() throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
            socket.setSoTimeout(5000);
            socket.getOutputStream().write(("GET " + STATUS_PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            String page = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            // ... "server accepts handled requests\n 12 12 345 \n" ...
            Matcher counts = STATUS_COUNTS.matcher(page);
            if (!counts.find()) {
                throw new IOException("no request count in nginx's status page: " + page);
            }
            return Long.parseLong(counts.group(1));
        }
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(20, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(5, TimeUnit.SECONDS);
        }
        try (var files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }
}
