package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.header;
import static io.wharf.servlet.ServletTester.headers;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;


import org.junit.jupiter.api.Test;

/** Request dispatching (Servlet 6.1 chapter 9) and error pages (section 10.9). */
class DispatchTest extends ServletTestCase {

    /** Prints the paths, the dispatch type and the dispatch attributes it sees. */
    static final class Target extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.setHeader("X-Target", "set");
            response.setStatus(202);
            HttpServletMapping mapping = request.getHttpServletMapping();
            response.getWriter().print("[" + request.getDispatcherType() + " uri=" + request.getRequestURI()
                + " servletPath=" + request.getServletPath() + " pathInfo=" + request.getPathInfo()
                + " query=" + request.getQueryString() + " p=" + String.join(",", values(request, "p"))
                + " mapping=" + mapping.getPattern()
                + " forward.uri=" + request.getAttribute(RequestDispatcher.FORWARD_REQUEST_URI)
                + " forward.servletPath=" + request.getAttribute(RequestDispatcher.FORWARD_SERVLET_PATH)
                + " forward.query=" + request.getAttribute(RequestDispatcher.FORWARD_QUERY_STRING)
                + " include.uri=" + request.getAttribute(RequestDispatcher.INCLUDE_REQUEST_URI)
                + " include.servletPath=" + request.getAttribute(RequestDispatcher.INCLUDE_SERVLET_PATH)
                + " include.pathInfo=" + request.getAttribute(RequestDispatcher.INCLUDE_PATH_INFO)
                + " include.mapping=" + pattern(request.getAttribute(RequestDispatcher.INCLUDE_MAPPING)) + "]");
        }

        private static String[] values(HttpServletRequest request, String name) {
            String[] values = request.getParameterValues(name);
            return values == null ? new String[0] : values;
        }

        private static String pattern(Object mapping) {
            return mapping instanceof HttpServletMapping m ? m.getPattern() : null;
        }
    }

    private ServletTester start(HttpServlet source) throws Exception {
        tester("/ctx");
        tester.context.getServletContext().addServlet("target", new Target()).addMapping("/target/*");
        tester.context.addServlet(source, "/source/*");
        return tester.start();
    }

    @Test
    void forwardShowsTheTargetsPathsAndTheOriginalOnesAsAttributes() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                response.getWriter().print("discarded by the forward");
                request.getRequestDispatcher("/target/x%20y?p=forward").forward(request, response);
                response.getWriter().print("ignored: the forward closed the response");
            }
        });
        String response = tester.get("/ctx/source/s?p=original");
        assertEquals(202, status(response));
        assertEquals("set", header(response, "X-Target"));
        assertEquals("[FORWARD uri=/ctx/target/x%20y servletPath=/target pathInfo=/x y query=p=forward p=forward,original"
            + " mapping=/target/* forward.uri=/ctx/source/s forward.servletPath=/source forward.query=p=original"
            + " include.uri=null include.servletPath=null include.pathInfo=null include.mapping=null]", content(response));
    }

    @Test
    void includeKeepsThePathsStatusAndHeadersAndDescribesTheTargetInAttributes() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                response.getWriter().print("before ");
                request.getRequestDispatcher("/target/inc?p=included").include(request, response);
                response.getWriter().print(" after");
            }
        });
        String response = tester.get("/ctx/source/s?p=original");
        assertEquals(200, status(response), "the included servlet cannot set the status");
        assertNull(header(response, "X-Target"), "nor headers");
        assertEquals("before [INCLUDE uri=/ctx/source/s servletPath=/source pathInfo=/s query=p=original p=included,original"
            + " mapping=/source/* forward.uri=null forward.servletPath=null forward.query=null include.uri=/ctx/target/inc"
            + " include.servletPath=/target include.pathInfo=/inc include.mapping=/target/*] after", content(response));
    }

    @Test
    void aNamedDispatcherKeepsThePathsAndSetsNoAttributes() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                getServletContext().getNamedDispatcher("target").forward(request, response);
            }
        });
        assertEquals("[FORWARD uri=/ctx/source/s servletPath=/source pathInfo=/s query=null p= mapping=/source/* forward.uri=null"
            + " forward.servletPath=null forward.query=null include.uri=null include.servletPath=null include.pathInfo=null"
            + " include.mapping=null]", content(tester.get("/ctx/source/s")));
    }

    @Test
    void relativeDispatcherPathsAndPathsLeavingTheContext() throws Exception {
        start(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                if (request.getRequestDispatcher("/../../etc/passwd") != null) {
                    throw new IllegalStateException("a dispatcher above the context root");
                }
                request.getRequestDispatcher("../../target/rel").forward(request, response);
            }
        });
        String relative = content(tester.get("/ctx/source/a/b"));
        assertTrue(relative.contains("uri=/ctx/source/a/../../target/rel servletPath=/target pathInfo=/rel "), relative);
    }

    @Test
    void filtersRunForTheirDispatcherTypesOnly() throws Exception {
        tester("/ctx");
        tester.context.getServletContext().addServlet("target", new Target()).addMapping("/target/*");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                request.getRequestDispatcher("/target/x").forward(request, response);
            }
        }, "/source/*");
        tester.context.addFilter(new ServletBasicsTest.TrailFilter("request"), "/*", EnumSet.of(DispatcherType.REQUEST));
        tester.context.addFilter(new ServletBasicsTest.TrailFilter("forward"), "/target/*", EnumSet.of(DispatcherType.FORWARD));
        tester.context.addFilter(new ServletBasicsTest.TrailFilter("both"), "/*",
            EnumSet.of(DispatcherType.REQUEST, DispatcherType.FORWARD));
        tester.start();
        assertEquals(List.of("request", "both", "forward", "both"), headers(tester.get("/ctx/source/s"), "X-Trail"));
        assertEquals(List.of("request", "both"), headers(tester.get("/ctx/target/direct"), "X-Trail"));
    }

    /** Prints the error attributes it sees. */
    static final class ErrorPage extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
            response.getWriter().print("error page " + request.getDispatcherType() + " status="
                + request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) + " message="
                + request.getAttribute(RequestDispatcher.ERROR_MESSAGE) + " uri="
                + request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) + " servlet="
                + request.getAttribute(RequestDispatcher.ERROR_SERVLET_NAME) + " exception="
                + (exception == null ? null : exception.getClass().getSimpleName()) + " method="
                + request.getAttribute(RequestDispatcher.ERROR_METHOD) + " path=" + request.getServletPath());
        }
    }

    @Test
    void errorPagesByStatusAndByExceptionType() throws Exception {
        tester("/ctx");
        tester.context.getServletContext().addServlet("errors", new ErrorPage()).addMapping("/errors/*");
        tester.context.getServletContext().addServlet("failing", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                switch (request.getPathInfo()) {
                    case "/404" -> response.sendError(404, "not here");
                    case "/state" -> throw new IllegalStateException("state");
                    case "/wrapped" -> throw new ServletException("wrapped", new UnsupportedOperationException("inner"));
                    case "/other" -> throw new IOException("other");
                    default -> response.sendError(418);
                }
            }
        }).addMapping("/fail/*");
        tester.context.addErrorPage(404, "/errors/404");
        tester.context.addErrorPage(RuntimeException.class, "/errors/runtime");
        tester.context.addErrorPage(UnsupportedOperationException.class, "/errors/unsupported");
        tester.start();

        String notFound = tester.get("/ctx/fail/404");
        assertEquals(404, status(notFound));
        assertEquals("error page ERROR status=404 message=not here uri=/ctx/fail/404 servlet=failing exception=null method=GET"
            + " path=/errors", content(notFound));
        assertEquals("error page ERROR status=404 message=null uri=/ctx/unmapped servlet=default exception=null method=GET"
            + " path=/errors", content(tester.get("/ctx/unmapped")));
        String state = tester.get("/ctx/fail/state");
        assertEquals(500, status(state));
        assertTrue(content(state).contains("exception=IllegalStateException"), state);
        String wrapped = content(tester.get("/ctx/fail/wrapped"));
        assertTrue(wrapped.contains("exception=UnsupportedOperationException"),
            "the root cause of a ServletException finds its page (section 10.9.2): " + wrapped);
        String other = tester.get("/ctx/fail/other");
        assertEquals(500, status(other));
        assertTrue(!content(other).contains("error page"), "no page for IOException: the server's own");
        assertEquals(418, status(tester.get("/ctx/fail/teapot")));
    }
}
