package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Chromium.Page#awaitLoaded}: a new tab first shows about:blank, whose document is already
 * "complete", so waiting for the ready state alone may return before the page asked for has even
 * arrived. A page whose response is held back for a second shows it: the wait must return with
 * that page in the tab.
 */
@Timeout(60)
class ChromiumPageLoadTest {

    private static final byte[] PAGE = "<!doctype html><title>held back</title><p>here".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path directory;

    private Chromium chromium;
    private ServerSocket server;
    private Thread answering;

    @AfterEach
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
        if (server != null) {
            server.close();
        }
        if (answering != null) {
            answering.join(10_000);
        }
    }

    @Test
    void theWaitEndsWithThePageAskedForNotTheBlankOne() throws Exception {
        server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        answering = new Thread(this::answerLate, "held-back-page");
        answering.start();
        String url = "http://127.0.0.1:" + server.getLocalPort() + "/held";

        chromium = Chromium.start(directory.resolve("profile"));
        Chromium.Page page = chromium.open(url);
        page.awaitLoaded(url, Duration.ofSeconds(20));
        String shown = page.evaluate("location.href + ' ' + document.readyState");
        assertEquals("held back", page.evaluate("document.title"), "the tab shows " + shown);
        assertEquals("here", page.evaluate("document.querySelector('p').textContent"));
    }

    /** Answers each request (on up to eight connections, each on its own thread) with the page, a second after it came. */
    private void answerLate() {
        for (int connection = 0; connection < 8 && !server.isClosed(); connection++) {
            try {
                Socket socket = server.accept();
                Thread.ofVirtual().name("held-back-page-" + connection).start(() -> answer(socket));
            } catch (Exception x) {
                return;
            }
        }
    }

    private static void answer(Socket accepted) {
        try (Socket socket = accepted) {
            socket.setSoTimeout(10_000);
            InputStream in = socket.getInputStream();
            if (in.read(new byte[8192]) <= 0) {
                return;
            }
            Thread.sleep(1000);
            OutputStream out = socket.getOutputStream();
            out.write(("HTTP/1.1 200 OK\r\ncontent-type: text/html;charset=utf-8\r\ncontent-length: " + PAGE.length
                    + "\r\nconnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(PAGE);
            out.flush();
        } catch (Exception x) {
            // The browser went away, or the test ended: nothing to answer.
        }
    }
}
