package io.wharf.tests.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The test application of non-blocking I/O (Servlet 6.1 §5.7 and §3.7's {@code ReadListener},
 * {@code WriteListener}), servlet {@code nb} at {@code /nb/*}, by path info:
 * <ul>
 * <li>{@code /read}: reads the body with a {@link ReadListener} while {@code isReady}, and on
 *     {@code onAllDataRead} prints its length, its SHA-256 and, with {@code calls} in the query,
 *     whether {@code onDataAvailable} ran more than once;
 * <li>{@code /echo}: reads the body so, then writes it back with a {@link WriteListener} in
 *     8 KiB writes while {@code isReady};
 * <li>{@code /write?size=N}: writes N bytes of numbered lines with a {@link WriteListener};
 * <li>{@code /read-twice}, {@code /write-twice}: a second {@code setReadListener} or
 *     {@code setWriteListener}, and {@code /read-without-async}, {@code /write-without-async}:
 *     one outside async processing: the exception's class (§3.7, §5.7: an
 *     IllegalStateException), printed, or for a second call, which the listener set first may
 *     race, kept for {@code /events};
 * <li>{@code /events?id=ID}: the side channel: what the listeners of the {@code /read?id=ID}
 *     request saw (a request whose client went away mid-body gets no response to show it),
 *     waiting at most {@link #WAIT_SECONDS} for its last event, or with {@code until=EVENT} for
 *     that event;
 * </ul>
 * The events are kept per context, so that the three containers' do not mix.
 */
final class NonBlockingApplication implements ServletContainerInitializer {

    /** How long {@code /events} waits for the last event of a request. */
    static final int WAIT_SECONDS = 5;

    /** The async timeout of a reading request: longer than the wait, so that the timeout is never what the wait sees. */
    private static final int READ_TIMEOUT_SECONDS = 60;

    private static final String EVENTS = NonBlockingApplication.class.getName() + ".events";
    private static final int CHUNK = 8 * 1024;

    /** What one request's listeners saw, in order; finished at onAllDataRead or onError. */
    private static final class Events {
        private final List<String> seen = new ArrayList<>();
        private boolean finished;

        synchronized void add(String event, boolean last) {
            if (seen.isEmpty() || !seen.getLast().equals(event)) {
                seen.add(event); // repeated onDataAvailable calls show once: how many there are is the container's business
            }
            finished |= last;
            notifyAll();
        }

        /** @return the events once the last came, or {@code until} (when not null), or the wait ended */
        synchronized List<String> await(String until) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            while (!finished && !seen.contains(until) && System.nanoTime() < end) {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
            }
            List<String> lines = new ArrayList<>(seen);
            lines.add(finished ? "finished" : "not finished after " + WAIT_SECONDS + " s");
            return lines;
        }
    }

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.setAttribute(EVENTS, new ConcurrentHashMap<String, Events>());
        var servlet = context.addServlet("nb", new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                handle(request, response);
            }
        });
        servlet.setAsyncSupported(true);
        servlet.addMapping("/nb/*");
    }

    @SuppressWarnings("unchecked")
    private static Events events(HttpServletRequest request) {
        Map<String, Events> all = (Map<String, Events>) request.getServletContext().getAttribute(EVENTS);
        return all.computeIfAbsent(String.valueOf(request.getParameter("id")), id -> new Events());
    }

    private static void handle(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain;charset=UTF-8");
        switch (String.valueOf(request.getPathInfo())) {
            case "/read" -> read(request, response, false);
            case "/echo" -> read(request, response, true);
            case "/write" -> {
                AsyncContext async = request.startAsync();
                response.getOutputStream().setWriteListener(new Writer(async, lines(Integer.parseInt(request.getParameter("size")))));
            }
            case "/read-twice" -> {
                // The listener may already run on another thread: what the second call threw goes to the side channel.
                AsyncContext async = request.startAsync();
                ReadListener listener = new Reader(async, new Events(), false);
                request.getInputStream().setReadListener(listener);
                events(request).add("second setReadListener: " + failure(() -> request.getInputStream().setReadListener(listener)), true);
            }
            case "/write-twice" -> {
                AsyncContext async = request.startAsync();
                Writer writer = new Writer(async, "written once\n".getBytes(StandardCharsets.UTF_8));
                response.getOutputStream().setWriteListener(writer);
                events(request).add("second setWriteListener: " + failure(() -> response.getOutputStream().setWriteListener(writer)), true);
            }
            case "/read-without-async" ->
                response.getWriter().println("setReadListener without async: "
                    + failure(() -> request.getInputStream().setReadListener(new Reader(null, new Events(), false))));
            case "/write-without-async" ->
                response.getWriter().println("setWriteListener without async: "
                    + failure(() -> response.getOutputStream().setWriteListener(new Writer(null, new byte[0]))));
            case "/events" -> {
                try {
                    response.getWriter().println(String.join("\n", events(request).await(request.getParameter("until"))));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IOException(interrupted);
                }
            }
            default -> response.sendError(404);
        }
    }

    private static void read(HttpServletRequest request, HttpServletResponse response, boolean echo) throws IOException {
        AsyncContext async = request.startAsync();
        async.setTimeout(TimeUnit.SECONDS.toMillis(READ_TIMEOUT_SECONDS));
        request.getInputStream().setReadListener(new Reader(async, events(request), echo));
    }

    /** @return {@code size} bytes of numbered lines, the last one cut short */
    private static byte[] lines(int size) {
        StringBuilder text = new StringBuilder(size + 32);
        for (int line = 1; text.length() < size; line++) {
            text.append(String.format("line %07d of the non-blocking writer%n", line));
        }
        text.setLength(size);
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Something that should throw. */
    @FunctionalInterface
    private interface Call {
        void run() throws IOException;
    }

    /** @return the simple name of the class of what {@code call} threw, or "nothing thrown" */
    private static String failure(Call call) {
        try {
            call.run();
            return "nothing thrown";
        } catch (Exception thrown) {
            return thrown.getClass().getSimpleName();
        }
    }

    /** Reads the body while the stream is ready; at the end, prints what it read or writes it back. */
    private static final class Reader implements ReadListener {
        private final AsyncContext async;
        private final Events events;
        private final boolean echo;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final byte[] buffer = new byte[CHUNK];
        private int calls;

        Reader(AsyncContext async, Events events, boolean echo) {
            this.async = async;
            this.events = events;
            this.echo = echo;
        }

        @Override
        public void onDataAvailable() throws IOException {
            calls++;
            events.add("onDataAvailable", false);
            ServletInputStream in = async.getRequest().getInputStream();
            while (in.isReady() && !in.isFinished()) {
                int read = in.read(buffer);
                if (read > 0) {
                    body.write(buffer, 0, read);
                }
            }
        }

        @Override
        public void onAllDataRead() throws IOException {
            events.add("onAllDataRead after " + body.size() + " bytes", true);
            byte[] bytes = body.toByteArray();
            if (echo) {
                async.getResponse().getOutputStream().setWriteListener(new Writer(async, bytes));
                return;
            }
            // How often onDataAvailable ran depends on how the bytes came; it says something only of a body sent slowly.
            boolean counted = async.getRequest().getParameter("calls") != null;
            async.getResponse().getWriter().print("bytes=" + bytes.length + "\nsha256=" + sha256(bytes)
                + (counted ? "\nonDataAvailable more than once=" + (calls > 1) : "") + "\n");
            async.complete();
        }

        @Override
        public void onError(Throwable failure) {
            events.add("onError: " + (failure instanceof IOException ? "an IOException" : failure.getClass().getName()), true);
            async.complete();
        }
    }

    /** Writes {@code bytes} in {@link #CHUNK}s while the stream is ready, then completes. */
    private static final class Writer implements WriteListener {
        private final AsyncContext async;
        private final byte[] bytes;
        private int written;

        Writer(AsyncContext async, byte[] bytes) {
            this.async = async;
            this.bytes = bytes;
        }

        @Override
        public void onWritePossible() throws IOException {
            ServletOutputStream out = async.getResponse().getOutputStream();
            while (out.isReady()) {
                if (written == bytes.length) {
                    async.complete();
                    return;
                }
                int length = Math.min(CHUNK, bytes.length - written);
                out.write(bytes, written, length);
                written += length;
            }
        }

        @Override
        public void onError(Throwable failure) {
            async.complete();
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException missing) {
            throw new IllegalStateException(missing);
        }
    }
}
