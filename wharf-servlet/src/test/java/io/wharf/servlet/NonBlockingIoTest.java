package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.bytes;
import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.server.LocalConnector;

import org.junit.jupiter.api.Test;

/** Non-blocking I/O (Servlet 6.1 sections 5.3 and 5.4): ReadListener and WriteListener, no thread parked. */
class NonBlockingIoTest extends ServletTestCase {

    /** Reads the body with a ReadListener, counting the callbacks, and answers the byte count and the callbacks. */
    static final class CountingReader extends HttpServlet {
        final List<String> errors = new CopyOnWriteArrayList<>();
        final List<String> ends = new CopyOnWriteArrayList<>();

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            AsyncContext async = request.startAsync();
            ServletInputStream input = request.getInputStream();
            byte[] buffer = new byte[1024];
            long[] count = new long[2];
            input.setReadListener(new ReadListener() {
                @Override
                public void onDataAvailable() throws IOException {
                    count[1]++;
                    // The usual loop: it stops once the stream says it is finished, without reading the -1 (or the failure).
                    while (input.isReady() && !input.isFinished()) {
                        int read = input.read(buffer);
                        if (read < 0) {
                            return;
                        }
                        count[0] += read;
                    }
                }

                @Override
                public void onAllDataRead() throws IOException {
                    ends.add("onAllDataRead after " + count[0] + " bytes");
                    response.getWriter().print("read " + count[0] + " bytes, finished=" + input.isFinished()
                        + ", callbacks>1=" + (count[1] > 1));
                    async.complete();
                }

                @Override
                public void onError(Throwable failure) {
                    errors.add(String.valueOf(failure));
                    async.complete();
                }
            });
        }
    }

    @Test
    void aReadListenerReadsABodyThatArrivesInPieces() throws Exception {
        tester("/");
        CountingReader reader = new CountingReader();
        tester.context.addServlet(reader, "/read").setAsyncSupported(true);
        tester.start();
        try (LocalConnector.Client client = tester.connector.connect()) {
            client.send(ByteBuffer.wrap("POST /read HTTP/1.1\r\nHost: t\r\nContent-Length: 30000\r\nConnection: close\r\n\r\n".getBytes()));
            for (int i = 0; i < 3; i++) {
                Thread.sleep(50);
                client.send(ByteBuffer.wrap("x".repeat(10_000).getBytes()));
            }
            String response = client.readResponse(Duration.ofSeconds(10));
            assertEquals("read 30000 bytes, finished=true, callbacks>1=true", content(response));
        }
        assertEquals(List.of(), reader.errors);
    }

    /**
     * Section 5.3 and the {@code ReadListener} javadoc: {@code onAllDataRead} means all the body
     * was read; a client that goes away before its Content-Length is reached is an error, even
     * when the listener's loop stops on {@code isFinished()} before it reads the failure.
     */
    @Test
    void aBodyCutShortIsAnErrorNotItsEnd() throws Exception {
        tester("/");
        CountingReader reader = new CountingReader();
        tester.context.addServlet(reader, "/read").setAsyncSupported(true);
        tester.start();
        try (LocalConnector.Client client = tester.connector.connect()) {
            // The bytes and the end together: the failure comes while onDataAvailable loops.
            client.send(ByteBuffer.wrap(("POST /read HTTP/1.1\r\nHost: t\r\nContent-Length: 30000\r\n\r\n" + "x".repeat(1000)).getBytes()));
            client.shutdownOutput();
            long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (reader.errors.isEmpty() && reader.ends.isEmpty() && System.nanoTime() < end) {
                Thread.sleep(10);
            }
        }
        assertEquals(List.of(), reader.ends);
        assertEquals(1, reader.errors.size(), reader.errors.toString());
        assertTrue(reader.errors.getFirst().contains("early EOF"), reader.errors.toString());
    }

    @Test
    void readingWhileNotReadyAndSettingTheListenerWithoutAsyncAreErrors() throws Exception {
        tester("/");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                try {
                    request.getInputStream().setReadListener(new ReadListener() {
                        @Override
                        public void onDataAvailable() {
                        }

                        @Override
                        public void onAllDataRead() {
                        }

                        @Override
                        public void onError(Throwable t) {
                        }
                    });
                    response.getWriter().print("accepted");
                } catch (IllegalStateException expected) {
                    response.getWriter().print("refused without startAsync");
                }
            }
        }, "/read").setAsyncSupported(true);
        tester.start();
        assertEquals("refused without startAsync", content(tester.post("/read", "text/plain", "x")));
    }

    @Test
    void listenersAreCalledOnlyAfterTheDispatchThatSetThemReturned() throws Exception {
        tester("/");
        List<String> events = new CopyOnWriteArrayList<>();
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                AsyncContext async = request.startAsync();
                ServletInputStream input = request.getInputStream();
                input.setReadListener(new ReadListener() {
                    @Override
                    public void onDataAvailable() throws IOException {
                        events.add("onDataAvailable");
                        while (input.isReady() && input.read() >= 0) {
                            // Read it all.
                        }
                    }

                    @Override
                    public void onAllDataRead() throws IOException {
                        events.add("onAllDataRead");
                        response.getWriter().print(String.join(",", events));
                        async.complete();
                    }

                    @Override
                    public void onError(Throwable failure) {
                        async.complete();
                    }
                });
                try {
                    Thread.sleep(300);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
                events.add("doPost returns");
            }
        }, "/read").setAsyncSupported(true);
        tester.start();
        assertEquals("doPost returns,onDataAvailable,onAllDataRead", content(tester.post("/read", "text/plain", "abc")),
            "Servlet 6.1 section 5.3: the container calls the listener once the dispatch that set it returned");
    }

    /** Writes {@code total} bytes with a WriteListener in 8 KiB writes, as long as the stream is ready. */
    static final class Writer extends HttpServlet {
        final List<String> errors = new CopyOnWriteArrayList<>();
        volatile int notReady;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            int total = Integer.parseInt(request.getParameter("total"));
            AsyncContext async = request.startAsync();
            ServletOutputStream output = response.getOutputStream();
            byte[] chunk = new byte[8192];
            java.util.Arrays.fill(chunk, (byte) 'w');
            int[] written = new int[1];
            output.setWriteListener(new WriteListener() {
                @Override
                public void onWritePossible() throws IOException {
                    while (true) {
                        if (!output.isReady()) {
                            notReady++;
                            return;
                        }
                        if (written[0] >= total) {
                            async.complete();
                            return;
                        }
                        int length = Math.min(chunk.length, total - written[0]);
                        output.write(chunk, 0, length);
                        written[0] += length;
                    }
                }

                @Override
                public void onError(Throwable failure) {
                    errors.add(String.valueOf(failure));
                    async.complete();
                }
            });
        }
    }

    @Test
    void aWriteListenerWritesALargeBodyWithBackPressure() throws Exception {
        tester("/");
        Writer writer = new Writer();
        tester.context.addServlet(writer, "/write").setAsyncSupported(true);
        tester.start();
        int total = 4 * 1024 * 1024;
        try (LocalConnector.Client client = tester.connector.connect()) {
            client.send(ByteBuffer.wrap(("GET /write?total=" + total + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").getBytes()));
            Thread.sleep(200);
            String response = client.readUntilClosed(Duration.ofSeconds(20));
            assertEquals(200, status(response));
            String body = bytes(response);
            assertEquals(total, body.length());
            assertTrue(body.chars().allMatch(c -> c == 'w'));
        }
        assertEquals(List.of(), writer.errors);
        assertTrue(writer.notReady > 0, "the client did not read for 200 ms: the stream must have said not ready");
    }

    @Test
    void aSmallWriteListenerBodyGetsAContentLengthWhenItFitsTheBuffer() throws Exception {
        tester("/");
        tester.context.addServlet(new Writer(), "/write").setAsyncSupported(true);
        tester.start();
        String response = tester.get("/write?total=100");
        assertEquals(200, status(response));
        assertEquals("w".repeat(100), content(response));
    }
}
