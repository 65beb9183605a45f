package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.wharf.examples.WebSocketEchoServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Autobahn WebSocket conformance cases, run by kosoku in fuzzingclient mode against the
 * echo server of {@code ./wharf ws-echo} (permessage-deflate on): every case of sections 1 to
 * 13, compression included, must pass (OK, NON-STRICT or INFORMATIONAL). Two cases run at a
 * time. In CI a missing kosoku fails the test; elsewhere it is skipped.
 */
class AutobahnTest {

    @TempDir
    Path directory;

    private WebSocketEchoServer.Running echo;

    @AfterEach
    void stop() throws Exception {
        if (echo != null) {
            echo.server().stop();
        }
    }

    @Test
    void everyCasePassesAgainstTheEchoServer() throws Exception {
        String kosoku = Kosoku.executable();
        echo = WebSocketEchoServer.start(0);
        Path reports = directory.resolve("reports");
        List<String> command = List.of(kosoku, "-m", "fuzzingclient", "-i", "*", "-p", "2", "-o", reports.toString(), "127.0.0.1:" + echo.port());
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
            .redirectOutput(directory.resolve("kosoku.log").toFile()).start();
        if (!process.waitFor(15, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("kosoku did not finish in 15 minutes");
        }
        String log = Files.readString(directory.resolve("kosoku.log"), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), "kosoku failed: " + log);
        Kosoku.Report report = Kosoku.read(reports.resolve("index.json"));
        System.out.println("Autobahn cases 1-13 against ws-echo: " + report.cases() + " cases, " + report.behaviors()
            + " in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) + " s; passed but not OK: " + report.notOk());
        assertTrue(report.cases() >= 517, "expected the 517 cases of sections 1-13, found " + report.cases() + ": " + log);
        assertTrue(report.failed().isEmpty(), "failed cases: " + report.failed());
    }
}
