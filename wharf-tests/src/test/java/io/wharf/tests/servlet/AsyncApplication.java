package io.wharf.tests.servlet;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The test application of asynchronous processing (Servlet 6.1 section 2.3.3.3): the servlet
 * {@code async} at {@code /async/*} starts async processing and, as its path info says,
 * completes from a thread of its own, dispatches back to itself or to {@code target}
 * ({@code /async-target/*}), or lets the timeout fire with or without a listener that answers;
 * {@code plain} at {@code /plain/*} does not support async, and neither does the filter in
 * front of {@code /async/behind-plain-filter}. What each dispatch sees is printed.
 */
final class AsyncApplication implements ServletContainerInitializer {

    private static final String EVENTS = "events";

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        var async = context.addServlet("async", new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                asynchronously(request, response);
            }
        });
        async.setAsyncSupported(true);
        async.addMapping("/async/*");
        var target = context.addServlet("target", new PrintingServlet((request, response) -> seen(request)));
        target.setAsyncSupported(true);
        target.addMapping("/async-target/*");
        context.addServlet("plain", new PrintingServlet((request, response) -> startRefused(request))).addMapping("/plain/*");
        context.addFilter("plainFilter", (Filter) (request, response, chain) -> chain.doFilter(request, response))
            .addMappingForUrlPatterns(null, true, "/async/behind-plain-filter");
    }

    private static void asynchronously(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String how = request.getPathInfo();
        response.setContentType("text/plain;charset=UTF-8");
        if (request.getDispatcherType() == DispatcherType.ASYNC) {
            if (how.equals("/restart")) {
                AsyncContext again = request.startAsync();
                again.setTimeout(100);
                return;
            }
            response.getWriter().print(String.join("\n", seen(request)) + "\n");
            return;
        }
        if (how.equals("/behind-plain-filter")) {
            response.getWriter().print(String.join("\n", startRefused(request)) + "\n");
            return;
        }
        AsyncContext asyncContext = request.startAsync();
        String started = "isAsyncStarted=" + request.isAsyncStarted() + " hasOriginalRequestAndResponse="
            + asyncContext.hasOriginalRequestAndResponse() + " timeout>0=" + (asyncContext.getTimeout() > 0);
        switch (how) {
            case "/complete" -> elsewhere(() -> {
                PrintWriter writer = asyncContext.getResponse().getWriter();
                writer.print(started + "\ncompleted on another thread\n");
                asyncContext.complete();
            });
            case "/dispatch" -> elsewhere(asyncContext::dispatch);
            case "/dispatch-path" -> elsewhere(() -> asyncContext.dispatch("/async-target/x?q=async"));
            case "/dispatch-at-once" -> asyncContext.dispatch();
            case "/timeout-answered" -> {
                asyncContext.setTimeout(100);
                asyncContext.addListener(new Recorder(request, true));
            }
            case "/timeout-unanswered" -> asyncContext.setTimeout(100);
            case "/restart" -> {
                asyncContext.addListener(new Recorder(request, true));
                elsewhere(asyncContext::dispatch);
            }
            default -> {
                response.getWriter().print("no case " + how + "\n");
                asyncContext.complete();
            }
        }
    }

    /** An {@link AsyncListener} that records its events in a request attribute; on timeout it writes them and completes. */
    private static final class Recorder implements AsyncListener {

        private final List<String> events = new ArrayList<>();
        private final boolean answer;

        Recorder(HttpServletRequest request, boolean answer) {
            this.answer = answer;
            request.setAttribute(EVENTS, events);
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            events.add("onStartAsync");
            event.getAsyncContext().addListener(this);
        }

        @Override
        public void onTimeout(AsyncEvent event) throws IOException {
            events.add("onTimeout");
            if (answer) {
                event.getSuppliedResponse().setContentType("text/plain;charset=UTF-8");
                event.getSuppliedResponse().getWriter().print("events=" + events + "\n");
                event.getAsyncContext().complete();
            }
        }

        @Override
        public void onError(AsyncEvent event) {
            events.add("onError");
        }

        @Override
        public void onComplete(AsyncEvent event) {
            events.add("onComplete");
        }
    }

    private static List<String> startRefused(HttpServletRequest request) {
        List<String> lines = new ArrayList<>();
        lines.add("isAsyncSupported=" + request.isAsyncSupported());
        lines.add("startAsync=" + RequestApplication.call(request::startAsync).replaceAll("@.*", ""));
        lines.add("isAsyncStarted=" + request.isAsyncStarted());
        if (request.isAsyncStarted()) {
            request.getAsyncContext().complete(); // else the response waits for the timeout, 30 s by default
        }
        return lines;
    }

    private static List<String> seen(HttpServletRequest request) {
        List<String> lines = new ArrayList<>(PrintingServlet.paths(request));
        lines.add("isAsyncStarted=" + request.isAsyncStarted());
        for (String name : List.of(AsyncContext.ASYNC_REQUEST_URI, AsyncContext.ASYNC_CONTEXT_PATH, AsyncContext.ASYNC_SERVLET_PATH,
                AsyncContext.ASYNC_PATH_INFO, AsyncContext.ASYNC_QUERY_STRING)) {
            lines.add(name + "=" + request.getAttribute(name));
        }
        Object mapping = request.getAttribute(AsyncContext.ASYNC_MAPPING);
        lines.add(AsyncContext.ASYNC_MAPPING + "=" + (mapping instanceof jakarta.servlet.http.HttpServletMapping m
            ? m.getMappingMatch() + " " + m.getPattern() + " " + m.getServletName() : mapping));
        return lines;
    }

    /** Work the servlet hands to a thread that is not the container's. */
    private interface Work {
        void run() throws IOException, ServletException;
    }

    private static void elsewhere(Work work) {
        Thread thread = new Thread(() -> {
            try {
                work.run();
            } catch (IOException | ServletException e) {
                throw new IllegalStateException(e);
            }
        }, "async test application");
        thread.setDaemon(true);
        thread.start();
    }
}
