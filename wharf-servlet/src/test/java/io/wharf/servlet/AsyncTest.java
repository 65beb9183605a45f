package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.server.LocalConnector;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Asynchronous processing (Servlet 6.1 section 2.3.3.3): complete, dispatch, timeout, listeners, and many at once. */
class AsyncTest extends ServletTestCase {

    private final ExecutorService application = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() throws Exception {
        application.shutdownNow();
    }

    private ServletTester start(HttpServlet servlet) throws Exception {
        tester("/");
        tester.context.addServlet(servlet, "/async/*").setAsyncSupported(true);
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print("sync");
            }
        }, "/sync");
        return tester.start();
    }

    /** Records the listener events in order. */
    static class Events implements AsyncListener {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void onComplete(AsyncEvent event) {
            events.add("complete");
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            events.add("timeout");
        }

        @Override
        public void onError(AsyncEvent event) {
            events.add("error " + event.getThrowable().getMessage());
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            events.add("start");
        }
    }

    @Test
    void anotherThreadWritesAndCompletes() throws Exception {
        Events events = new Events();
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) {
                AsyncContext async = request.startAsync();
                async.addListener(events);
                application.execute(() -> {
                    try {
                        async.getResponse().getWriter().print("from another thread, async=" + request.isAsyncStarted());
                    } catch (IOException x) {
                        throw new RuntimeException(x);
                    }
                    async.complete();
                });
            }
        });
        String response = tester.get("/async/x");
        assertEquals(200, status(response));
        assertEquals("from another thread, async=true", content(response));
        waitFor(() -> events.events.equals(List.of("complete")));
    }

    @Test
    void completeCalledBeforeTheDispatchReturnsTakesEffectAfter() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                AsyncContext async = request.startAsync();
                async.complete();
                response.getWriter().print("still writing after complete, async=" + request.isAsyncStarted());
            }
        });
        // Still in asynchronous mode until this dispatch returns, as in Jetty and Tomcat.
        assertEquals("still writing after complete, async=true", content(tester.get("/async/x")));
    }

    /**
     * isAsyncStarted stays true until the dispatch that called startAsync returns, even when
     * another thread already dispatched or completed the cycle, as in Jetty and Tomcat: Spring
     * MVC asks right after a Callable or DeferredResult started the cycle, and when told false it
     * renders the handler's return value as a view instead (a forward to a missing page, 404).
     */
    @Test
    void isAsyncStartedStaysTrueUntilTheStartingDispatchReturns() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                if (request.getDispatcherType() == DispatcherType.ASYNC) {
                    response.getWriter().print(request.getAttribute("seen") + ", in the async dispatch " + request.isAsyncStarted());
                    return;
                }
                AsyncContext async = request.startAsync(request, new jakarta.servlet.http.HttpServletResponseWrapper(response));
                Future<?> asked = application.submit(request.getPathInfo().equals("/complete") ? async::complete : () -> async.dispatch());
                try {
                    asked.get(5, TimeUnit.SECONDS);
                } catch (Exception x) {
                    throw new IOException(x);
                }
                request.setAttribute("seen", "after another thread asked " + request.isAsyncStarted());
                if (request.getPathInfo().equals("/complete")) {
                    response.getWriter().print(request.getAttribute("seen"));
                }
            }
        });
        assertEquals("after another thread asked true, in the async dispatch false", content(tester.get("/async/dispatch")));
        assertEquals("after another thread asked true", content(tester.get("/async/complete")));
    }

    @Test
    void dispatchRunsTheServletAgainAsAnAsyncDispatch() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                if (request.getDispatcherType() == DispatcherType.ASYNC) {
                    response.getWriter().print("async dispatch to " + request.getRequestURI() + " from "
                        + request.getAttribute(AsyncContext.ASYNC_REQUEST_URI) + " query=" + request.getQueryString()
                        + " result=" + request.getAttribute("result"));
                    return;
                }
                AsyncContext async = request.startAsync();
                application.execute(() -> {
                    async.getRequest().setAttribute("result", "computed");
                    if (request.getPathInfo().equals("/other")) {
                        async.dispatch("/async/target?x=1");
                    } else {
                        async.dispatch();
                    }
                });
            }
        });
        assertEquals("async dispatch to /async/self from /async/self query=q=1 result=computed",
            content(tester.get("/async/self?q=1")));
        assertEquals("async dispatch to /async/target from /async/other query=x=1 result=computed",
            content(tester.get("/async/other")));
    }

    @Test
    void theTimeoutTellsListenersThenAnswers500() throws Exception {
        Events events = new Events();
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) {
                AsyncContext async = request.startAsync();
                async.setTimeout(100);
                async.addListener(events);
            }
        });
        assertEquals(500, status(tester.get("/async/x")));
        waitFor(() -> events.events.equals(List.of("timeout", "complete")));
    }

    @Test
    void aListenerCanCompleteOnTimeout() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) {
                AsyncContext async = request.startAsync();
                async.setTimeout(50);
                async.addListener(new Events() {
                    @Override
                    public void onTimeout(AsyncEvent event) {
                        try {
                            event.getAsyncContext().getResponse().getWriter().print("timed out politely");
                        } catch (IOException x) {
                            throw new RuntimeException(x);
                        }
                        event.getAsyncContext().complete();
                    }
                });
            }
        });
        String response = tester.get("/async/x");
        assertEquals(200, status(response));
        assertEquals("timed out politely", content(response));
    }

    @Test
    void startAsyncIsRefusedWhereAsyncIsNotSupported() throws Exception {
        tester("/");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                try {
                    request.startAsync();
                    response.getWriter().print("started");
                } catch (IllegalStateException expected) {
                    response.getWriter().print("refused: " + request.isAsyncSupported());
                }
            }
        }, "/*");
        tester.start();
        assertEquals("refused: false", content(tester.get("/x")));
    }

    @Test
    void anExceptionInAnAsyncCycleReachesTheListenersAndTheErrorPage() throws Exception {
        Events events = new Events();
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException {
                request.startAsync().addListener(events);
                throw new ServletException("boom");
            }
        });
        assertEquals(500, status(tester.get("/async/x")));
        waitFor(() -> events.events.equals(List.of("error boom", "complete")));
    }

    /** Many requests on many connections, each completed by an application thread racing the dispatch's return. */
    @Test
    void manyConcurrentAsyncRequestsEachCompleteOnce() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) {
                AsyncContext async = request.startAsync();
                String id = request.getParameter("id");
                application.execute(() -> {
                    try {
                        async.getResponse().getWriter().print(id);
                    } catch (IOException x) {
                        throw new RuntimeException(x);
                    }
                    async.complete();
                });
            }
        });
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                int id = i;
                results.add(clients.submit(() -> {
                    try (LocalConnector.Client client = tester.connector.connect()) {
                        client.send(java.nio.ByteBuffer.wrap(("GET /async/x?id=" + id + " HTTP/1.1\r\nHost: t\r\n\r\n"
                            + "GET /sync HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").getBytes()));
                        String first = client.readResponse(java.time.Duration.ofSeconds(10));
                        String second = client.readResponse(java.time.Duration.ofSeconds(10));
                        return content(first) + "," + content(second);
                    }
                }));
            }
            for (int i = 0; i < results.size(); i++) {
                assertEquals(i + ",sync", results.get(i).get(30, TimeUnit.SECONDS));
            }
        } finally {
            clients.shutdownNow();
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not met in time");
            Thread.sleep(5);
        }
    }
}
