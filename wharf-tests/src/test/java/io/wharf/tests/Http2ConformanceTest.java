package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.wharf.examples.Demo;
import io.wharf.examples.DemoCertificate;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.testing.Peers;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTP/2 against real peers: h2spec's 145 conformance cases on h2c (a prior-knowledge
 * connector), on h2 over TLS (ALPN, next to HTTP/1.1) and on the demo's two ports, and curl
 * speaking HTTP/2 both ways.
 * h2spec is installed by {@code scripts/install-peers h2spec} into {@code $(go env GOPATH)/bin};
 * in CI a missing peer fails the test, elsewhere it is skipped. The server's pool tracks leaks.
 */
class Http2ConformanceTest {

    private static final Pattern TESTS = Pattern.compile("<testsuites[^>]*\\btests=\"(\\d+)\"[^>]*");

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private Server server;
    private ServerConnector h2c;
    private ServerConnector mixed;
    private ServerConnector tls;

    @BeforeEach
    void start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        h2c = new ServerConnector(server, new Http2CleartextConnectionFactory());
        mixed = new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        tls = new ServerConnector(server, new TlsConnectionFactory(DemoCertificate.in(directory.resolve("tls"))),
                new HttpConnectionFactory(), new Http2ConnectionFactory());
        for (ServerConnector connector : List.of(h2c, mixed, tls)) {
            connector.setHost("127.0.0.1");
            server.addConnector(connector);
        }
        server.setHandler(Handler.of((request, response, callback) -> {
            String content = Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            Response.write(response, true, request.getMethod() + " " + request.getHttpURI().getPathQuery() + " "
                    + request.getConnectionMetaData().getHttpVersion() + " " + content.length(), callback);
            return true;
        }));
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void h2specPassesEveryCaseOnH2c() throws Exception {
        assertAllPass(h2spec("h2c", "-p", Integer.toString(h2c.getLocalPort())));
    }

    @Test
    void h2specPassesEveryCaseOnTheDemosPorts() throws Exception {
        // As ./wharf demo serves: HTTP/1.1 and h2c on one port (where a bad preface must still
        // end as HTTP/2 says), h2 and http/1.1 by ALPN on the other, behind the demo's handlers.
        Demo.Running demo = Demo.start(0, 0, directory.resolve("demo-tls"));
        try {
            assertAllPass(h2spec("demo h2c", "-p", Integer.toString(demo.httpPort())));
            assertAllPass(h2spec("demo h2", "-p", Integer.toString(demo.httpsPort()), "-t", "-k"));
        } finally {
            demo.server().stop();
        }
    }

    @Test
    void h2specPassesEveryCaseOnH2OverTls() throws Exception {
        assertAllPass(h2spec("h2", "-p", Integer.toString(tls.getLocalPort()), "-t", "-k"));
    }

    @Test
    void curlSpeaksHttp2WithPriorKnowledgeNextToHttp11() throws Exception {
        String uri = "http://127.0.0.1:" + mixed.getLocalPort();
        assertEquals("GET /a?b=1 HTTP/2.0 0 2", Curl.run("--http2-prior-knowledge", "-w", " %{http_version}", uri + "/a?b=1"));
        assertEquals("POST /p HTTP/2.0 5 2", Curl.run("--http2-prior-knowledge", "-w", " %{http_version}", "-d", "hello", uri + "/p"));
        assertEquals("GET /a HTTP/1.1 0 1.1", Curl.run("--http1.1", "-w", " %{http_version}", uri + "/a"));
    }

    @Test
    void curlUpgradesFromHttp11ToH2c() throws Exception {
        String uri = "http://127.0.0.1:" + mixed.getLocalPort();
        String verbose = Curl.run("--http2", "-v", "-w", " %{http_version}", uri + "/up");
        assertEquals("GET /up HTTP/2.0 0 2", verbose);
    }

    @Test
    void h2loadGetsEveryResponseOnManyStreams() throws Exception {
        Peers.requireTool("h2load");
        String uri = "http://127.0.0.1:" + h2c.getLocalPort() + "/load";
        Process process = new ProcessBuilder("h2load", "-n", "20000", "-c", "4", "-m", "32", uri).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "h2load did not finish");
        System.out.println("h2load: " + output.lines().filter(line -> line.startsWith("requests:") || line.startsWith("finished in"))
                .reduce("", (a, b) -> a + b + "; "));
        assertTrue(output.contains("requests: 20000 total, 20000 started, 20000 done, 20000 succeeded, 0 failed, 0 errored, 0 timeout"), output);
        assertTrue(output.contains("status codes: 20000 2xx"), output);
    }

    @Test
    void curlNegotiatesH2ByAlpn() throws Exception {
        String uri = "https://127.0.0.1:" + tls.getLocalPort();
        assertEquals("GET /x HTTP/2.0 0 2", Curl.run("--http2", "-k", "-w", " %{http_version}", uri + "/x"));
        assertEquals("GET /x HTTP/1.1 0 1.1", Curl.run("--http1.1", "-k", "-w", " %{http_version}", uri + "/x"));
    }

    /** Runs h2spec on 127.0.0.1 with {@code arguments}; @return its JUnit report */
    private String h2spec(String name, String... arguments) throws Exception {
        Path report = directory.resolve(name + "-report.xml");
        List<String> command = new ArrayList<>(List.of(h2specBinary(), "-h", "127.0.0.1", "-o", "5", "-j", report.toString()));
        command.addAll(List.of(arguments));
        Path log = directory.resolve(name + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("h2spec did not finish in 5 minutes");
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        System.out.println("h2spec " + name + ": " + output.lines().filter(line -> line.contains("tests,")).findFirst().orElse("?"));
        assertTrue(Files.exists(report), "h2spec wrote no report: " + output);
        String xml = Files.readString(report, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), () -> "h2spec failed:\n" + failuresFirst(output));
        return xml + "\n" + output;
    }

    private static void assertAllPass(String reportAndOutput) {
        int tests = 0;
        Matcher matcher = TESTS.matcher(reportAndOutput);
        if (matcher.find()) {
            tests = Integer.parseInt(matcher.group(1));
        } else {
            tests = countOf(reportAndOutput, "<testcase ");
        }
        assertEquals(145, tests, "h2spec ran another number of cases:\n" + reportAndOutput);
        assertEquals(0, countOf(reportAndOutput, "<failure"), () -> "h2spec cases failed:\n" + failuresFirst(reportAndOutput));
        assertEquals(0, countOf(reportAndOutput, "<skipped"), "h2spec cases skipped:\n" + reportAndOutput);
        assertTrue(reportAndOutput.contains("145 tests, 145 passed, 0 skipped, 0 failed"), reportAndOutput);
    }

    /** @return h2spec's output with its closing list of failed cases first, so that a cut log still names them */
    private static String failuresFirst(String output) {
        int at = output.lastIndexOf("Failures:");
        return at < 0 ? output : output.substring(at) + "\n--- the whole run ---\n" + output;
    }

    private static int countOf(String text, String what) {
        int count = 0;
        for (int at = text.indexOf(what); at >= 0; at = text.indexOf(what, at + 1)) {
            count++;
        }
        return count;
    }

    /** @return h2spec from the PATH or Go's bin directory; fails in CI, skips elsewhere, when missing */
    private static String h2specBinary() throws Exception {
        List<File> candidates = new ArrayList<>();
        for (String path : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            candidates.add(new File(path, "h2spec"));
        }
        String gopath = System.getenv("GOPATH");
        candidates.add(new File(gopath != null ? gopath : System.getProperty("user.home") + "/go", "bin/h2spec"));
        for (File candidate : candidates) {
            if (candidate.canExecute()) {
                return candidate.getPath();
            }
        }
        String missing = "h2spec is not installed; run scripts/install-peers h2spec (needs go)";
        if ("true".equals(System.getenv("CI"))) {
            throw new AssertionError(missing);
        }
        Assumptions.assumeTrue(false, missing);
        return null;
    }
}
