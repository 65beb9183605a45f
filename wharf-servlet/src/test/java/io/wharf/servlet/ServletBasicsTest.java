package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.header;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;


import org.junit.jupiter.api.Test;

/** A servlet context on the core server: mapping, filters, listeners, start and stop (Servlet 6.1 chapters 2, 4, 6, 11, 12). */
class ServletBasicsTest extends ServletTestCase {

    /** Prints the paths and mapping the servlet sees. */
    public static final class PathsServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            HttpServletMapping mapping = request.getHttpServletMapping();
            response.setContentType("text/plain");
            response.getWriter().print("contextPath=" + request.getContextPath() + " servletPath=" + request.getServletPath()
                + " pathInfo=" + request.getPathInfo() + " requestURI=" + request.getRequestURI()
                + " match=" + mapping.getMappingMatch() + " pattern=" + mapping.getPattern()
                + " value=" + mapping.getMatchValue() + " name=" + mapping.getServletName().replaceAll("-.*", ""));
        }
    }

    @Test
    void servesAServletWithTheMappingOfChapter12() throws Exception {
        ServletTester tester = tester("/app");
        tester.context.getServletContext().addServlet("exact", new PathsServlet()).addMapping("/exact");
        tester.context.getServletContext().addServlet("prefix", new PathsServlet()).addMapping("/a/*");
        tester.context.getServletContext().addServlet("extension", new PathsServlet()).addMapping("*.do");
        tester.context.getServletContext().addServlet("default", new PathsServlet()).addMapping("/");
        tester.context.getServletContext().addServlet("root", new PathsServlet()).addMapping("");
        tester.start();

        assertEquals("contextPath=/app servletPath=/exact pathInfo=null requestURI=/app/exact match=EXACT pattern=/exact"
            + " value=exact name=exact", content(tester.get("/app/exact")));
        assertEquals("contextPath=/app servletPath=/a pathInfo=/b/c requestURI=/app/a/b/c match=PATH pattern=/a/*"
            + " value=b/c name=prefix", content(tester.get("/app/a/b/c")));
        assertEquals("contextPath=/app servletPath=/x/y.do pathInfo=null requestURI=/app/x/y.do match=EXTENSION pattern=*.do"
            + " value=x/y name=extension", content(tester.get("/app/x/y.do")));
        assertEquals("contextPath=/app servletPath=/other pathInfo=null requestURI=/app/other match=DEFAULT pattern=/"
            + " value= name=default", content(tester.get("/app/other")));
        assertEquals("contextPath=/app servletPath= pathInfo=/ requestURI=/app/ match=CONTEXT_ROOT pattern="
            + " value= name=root", content(tester.get("/app/")));
        assertEquals("contextPath=/app servletPath=/a pathInfo=/x y requestURI=/app/a/x%20y match=PATH pattern=/a/*"
            + " value=x y name=prefix", content(tester.get("/app/a/x%20y")));
        String response = tester.get("/app/exact");
        assertEquals("text/plain;charset=ISO-8859-1", header(response, "Content-Type"));
        assertEquals(Integer.toString(content(response).length()), header(response, "Content-Length"));
    }

    @Test
    void aPathNoPatternMapsIs404AndAnUnknownContextIsNotOurs() throws Exception {
        ServletTester tester = tester("/app");
        tester.context.addServlet(new PathsServlet(), "/only");
        tester.start();
        assertEquals(404, status(tester.get("/app/other")));
        assertEquals(404, status(tester.get("/elsewhere")));
        assertEquals(200, status(tester.get("/app/only")));
    }

    /** Appends its name to the "trail" attribute and to a response header. */
    static final class TrailFilter implements Filter {
        private final String name;

        TrailFilter(String name) {
            this.name = name;
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            ((HttpServletResponse) response).addHeader("X-Trail", name);
            chain.doFilter(request, response);
        }
    }

    @Test
    void filtersRunInMappingOrderByUrlPatternThenServletName() throws Exception {
        ServletTester tester = tester("/");
        var servlet = tester.context.getServletContext().addServlet("target", new PathsServlet());
        servlet.addMapping("/t/*");
        var byName = tester.context.getServletContext().addFilter("byName", new TrailFilter("byName"));
        byName.addMappingForServletNames(null, true, "target");
        tester.context.addFilter(new TrailFilter("all"), "/*", EnumSet.of(DispatcherType.REQUEST));
        tester.context.addFilter(new TrailFilter("t"), "/t/*", EnumSet.of(DispatcherType.REQUEST));
        tester.context.addFilter(new TrailFilter("other"), "/other/*", EnumSet.of(DispatcherType.REQUEST));
        tester.context.addFilter(new TrailFilter("forwardOnly"), "/*", EnumSet.of(DispatcherType.FORWARD));
        var first = tester.context.getServletContext().addFilter("first", new TrailFilter("first"));
        first.addMappingForUrlPatterns(null, false, "/*");
        tester.start();

        String response = tester.get("/t/x");
        assertEquals(200, status(response));
        assertEquals(List.of("first", "all", "t", "byName"), ServletTester.headers(response, "X-Trail"));
    }

    @Test
    void listenersHearTheContextAndEachRequest() throws Exception {
        List<String> events = Collections.synchronizedList(new ArrayList<>());
        ServletTester tester = tester("/");
        tester.context.addEventListener(new ServletContextListener() {
            @Override
            public void contextInitialized(ServletContextEvent event) {
                events.add("contextInitialized " + event.getServletContext().getContextPath());
            }

            @Override
            public void contextDestroyed(ServletContextEvent event) {
                events.add("contextDestroyed");
            }
        });
        tester.context.addEventListener(new ServletRequestListener() {
            @Override
            public void requestInitialized(ServletRequestEvent event) {
                events.add("requestInitialized " + ((HttpServletRequest) event.getServletRequest()).getRequestURI());
            }

            @Override
            public void requestDestroyed(ServletRequestEvent event) {
                events.add("requestDestroyed");
            }
        });
        tester.context.addServlet(new HttpServlet() {
            @Override
            public void init() {
                events.add("servlet init");
            }

            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) {
                events.add("service");
            }

            @Override
            public void destroy() {
                events.add("servlet destroy");
            }
        }, "/s");
        tester.start();
        assertEquals(List.of("contextInitialized "), events);
        assertEquals(200, status(tester.get("/s")));
        tester.close();
        tester = null;
        assertEquals(List.of("contextInitialized ", "requestInitialized /s", "servlet init", "service", "requestDestroyed",
            "servlet destroy", "contextDestroyed"), events);
    }

    @Test
    void initializersRegisterServletsWhileTheContextStartsAndNotAfter() throws Exception {
        ServletTester tester = tester("/app");
        List<IllegalStateException> late = new ArrayList<>();
        tester.context.addServletContainerInitializer((classes, context) -> {
            assertNull(classes);
            var registration = context.addServlet("fromInitializer", PathsServlet.class);
            registration.addMapping("/init/*");
            registration.setLoadOnStartup(1);
            context.setInitParameter("p", "v");
        });
        tester.start();
        assertEquals("v", tester.context.getServletContext().getInitParameter("p"));
        assertTrue(content(tester.get("/app/init/x")).endsWith("name=fromInitializer"));
        late.add(assertThrows(IllegalStateException.class,
            () -> tester.context.getServletContext().addServlet("late", new PathsServlet())));
        assertTrue(late.get(0).getMessage().contains("already initialized"), late.get(0).getMessage());

        // A restart runs the initializer again without a clash, and forgets nothing it needs.
        tester.context.stop();
        assertFalse(tester.context.getServletContext().getServletRegistrations().containsKey("fromInitializer"));
        tester.context.start();
        assertEquals(200, status(tester.get("/app/init/x")));
    }

    @Test
    void loadOnStartupInitializesInOrderAtStart() throws Exception {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        ServletTester tester = tester("/");
        for (int rank : new int[] {3, 1, 2}) {
            var registration = tester.context.getServletContext().addServlet("s" + rank, new HttpServlet() {
                @Override
                public void init() {
                    order.add("s" + rank);
                }
            });
            registration.setLoadOnStartup(rank);
        }
        tester.context.getServletContext().addServlet("lazy", new HttpServlet() {
            @Override
            public void init() {
                order.add("lazy");
            }
        }).addMapping("/lazy");
        tester.start();
        assertEquals(List.of("s1", "s2", "s3"), order);
        tester.get("/lazy");
        assertEquals(List.of("s1", "s2", "s3", "lazy"), order);
    }

    @Test
    void registrationsReportConflictsAndRefuseBadInput() throws Exception {
        ServletTester tester = tester("/");
        var context = tester.context.getServletContext();
        var a = context.addServlet("a", new PathsServlet());
        assertEquals(Set.of(), a.addMapping("/x", "*.jsp"));
        var b = context.addServlet("b", new PathsServlet());
        assertEquals(Set.of("/x"), b.addMapping("/x", "/y"));
        assertEquals(List.of(), List.copyOf(b.getMappings()), "nothing mapped when one pattern conflicts");
        assertNull(context.addServlet("a", new PathsServlet()), "a second servlet of the same name");
        assertThrows(IllegalArgumentException.class, () -> context.addServlet("", new PathsServlet()));
        assertThrows(IllegalArgumentException.class, () -> b.addMapping("no-slash"));
        assertThrows(IllegalArgumentException.class, () -> context.addListener(Runnable.class.getName()));
        assertTrue(a.setInitParameter("k", "1"));
        assertFalse(a.setInitParameter("k", "2"));
        assertEquals("1", a.getInitParameter("k"));
    }
}
