package io.wharf.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The application of the {@code servlet} macro run: the same classes on Wharf's, Jetty 12.1's
 * (ee11) and Tomcat 11's servlet containers ({@link ServletServers}), each of which runs this
 * initializer when its context starts. It registers its servlets through the standard
 * {@link ServletContext} API, so no container sees anything the others do not:
 *
 * <ul>
 *   <li>{@code GET /plaintext}: {@code Hello, World!} as {@code text/plain};</li>
 *   <li>{@code GET /json}: {@code {"message":"Hello, World!"}} as {@code application/json},
 *       serialized for each request by {@link #json(String)};</li>
 *   <li>{@code GET /async}: the plaintext answer, written and completed on the application's
 *       own executor (two platform threads) after {@code startAsync()} on the container's thread;</li>
 *   <li>{@code POST /echo}: the request body echoed ({@code application/octet-stream}) with a
 *       {@link ReadListener} and a {@link WriteListener}, through one 16 KiB buffer, no thread
 *       waiting ({@link Echo}).</li>
 * </ul>
 *
 * Every answer carries a Content-Length (the echo's is the request's), so that no container
 * chunks one and another not. The executor is shut down when the context is destroyed.
 *
 * <p><b>Threads.</b> The containers' request threads call the servlets; the executor's threads
 * complete the asynchronous ones; an echo's listener callbacks come one at a time from its
 * container, on its threads.
 */
final class ServletApp implements ServletContainerInitializer {

    static final byte[] PLAINTEXT = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    static final String MESSAGE = "Hello, World!";
    static final int ECHO_BUFFER = 16 * 1024;

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        ExecutorService executor = Executors.newFixedThreadPool(2, daemonThreads());
        context.addServlet("plaintext", new Plaintext()).addMapping("/plaintext");
        context.addServlet("json", new Json()).addMapping("/json");
        var async = context.addServlet("async", new AsyncPlaintext(executor));
        async.setAsyncSupported(true);
        async.addMapping("/async");
        var echo = context.addServlet("echo", new EchoServlet());
        echo.setAsyncSupported(true);
        echo.addMapping("/echo");
        context.addListener(new ServletContextListener() {
            @Override
            public void contextDestroyed(ServletContextEvent event) {
                executor.shutdownNow();
            }
        });
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "app-async-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * @return {@code {"message":"..."}} in UTF-8: a one-field object serialized by hand, quotes,
     *     backslashes and control characters escaped as JSON wants
     */
    static byte[] json(String message) {
        StringBuilder json = new StringBuilder(message.length() + 16).append("{\"message\":\"");
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append("\"}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Sets the type and length and writes {@code body} through the response's output stream. */
    static void write(HttpServletResponse response, String contentType, byte[] body) throws IOException {
        response.setContentType(contentType);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    static final class Plaintext extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            write(response, "text/plain", PLAINTEXT);
        }
    }

    static final class Json extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            write(response, "application/json", json(MESSAGE));
        }
    }

    /** Starts asynchronous processing and answers from another thread. */
    static final class AsyncPlaintext extends HttpServlet {
        private final ExecutorService executor;

        AsyncPlaintext(ExecutorService executor) {
            this.executor = executor;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) {
            AsyncContext async = request.startAsync();
            executor.execute(() -> {
                try {
                    write((HttpServletResponse) async.getResponse(), "text/plain", PLAINTEXT);
                } catch (IOException x) {
                    // The client is gone: wrk closes its connections at the end of each run.
                } finally {
                    async.complete();
                }
            });
        }
    }

    /** Echoes a request body without blocking: one {@link Echo} per request. */
    static final class EchoServlet extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            AsyncContext async = request.startAsync();
            response.setContentType("application/octet-stream");
            long length = request.getContentLengthLong();
            if (length >= 0) {
                response.setContentLengthLong(length);
            }
            request.getInputStream().setReadListener(new Echo(async, request.getInputStream(), response.getOutputStream()));
        }
    }

    /**
     * One echo: reads a chunk into its buffer when the input has one, writes it when the output
     * is ready, and reads the next only once the output is ready again — the buffer is not
     * touched while a container may still hold it. Only the containers' listener callbacks move
     * bytes, and each container calls one request's callbacks one at a time (so the fields need
     * no lock of the echo's own): the servlet sets the read listener only, and the first read
     * callback sets the write listener, whose callbacks then come too.
     *
     * <p>The first version set both listeners in the servlet and pumped from its thread too, under
     * the echo's lock. On Wharf that deadlocked within seconds under load: Wharf calls a listener
     * holding its exchange's callback lock, and {@code ServletInputStream.isReady()}, when content
     * has arrived, runs the read callback inline and so takes that lock — the servlet's thread
     * held the echo's lock and waited for the exchange's, a read callback the other way round.
     * Before that lock, it also could complete the echo from the read callback before the servlet
     * set the write listener. Jetty and Tomcat ran that version without a fault.
     */
    static final class Echo implements ReadListener, WriteListener {
        private final AsyncContext async;
        private final ServletInputStream input;
        private final ServletOutputStream output;
        private final byte[] buffer = new byte[ECHO_BUFFER];
        private int pending;
        private boolean writing;
        private boolean ended;
        private boolean completed;

        Echo(AsyncContext async, ServletInputStream input, ServletOutputStream output) {
            this.async = async;
            this.input = input;
            this.output = output;
        }

        @Override
        public void onDataAvailable() throws IOException {
            pump();
        }

        @Override
        public void onAllDataRead() throws IOException {
            ended = true;
            pump();
        }

        @Override
        public void onWritePossible() throws IOException {
            pump();
        }

        private void pump() throws IOException {
            if (!writing) {
                // The write listener's first onWritePossible moves the bytes.
                writing = true;
                output.setWriteListener(this);
                return;
            }
            while (!completed) {
                if (!output.isReady()) {
                    return;
                }
                if (pending > 0) {
                    output.write(buffer, 0, pending);
                    pending = 0;
                } else if (ended) {
                    completed = true;
                    async.complete();
                } else if (!input.isReady()) {
                    return;
                } else {
                    int read = input.read(buffer);
                    if (read < 0) {
                        ended = true;
                    } else {
                        pending = read;
                    }
                }
            }
        }

        @Override
        public void onError(Throwable failure) {
            // A client gone mid-echo is expected: wrk closes its connections at the end of each run.
            if (!(failure instanceof IOException)) {
                System.err.println("echo failed: " + failure);
            }
            if (!completed) {
                completed = true;
                async.complete();
            }
        }
    }
}
