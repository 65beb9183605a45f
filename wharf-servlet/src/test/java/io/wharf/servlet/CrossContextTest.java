package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Server;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Cross-context dispatch (Servlet 6.1 section 4.7): two contexts of one server, in a ContextHandlerCollection. */
class CrossContextTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private LocalConnector connector;
    private final ClassLoader loaderB = new URLClassLoader("context-b", new URL[0], CrossContextTest.class.getClassLoader());

    @BeforeEach
    void start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setSendDateHeader(false);
        connector = new LocalConnector(server, new HttpConnectionFactory(configuration));
        server.addConnector(connector);

        ServletContextHandler a = new ServletContextHandler("/a");
        a.setCrossContextDispatch(true);
        a.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                ServletContext other = getServletContext().getContext("/b/target");
                HttpSession mine = request.getSession();
                mine.setAttribute("owner", "a");
                request.setAttribute("aSessionId", mine.getId());
                RequestDispatcher dispatcher = other.getRequestDispatcher("/target?from=a");
                switch (request.getPathInfo()) {
                    case "/forward" -> dispatcher.forward(request, response);
                    case "/include" -> {
                        response.getWriter().print("a[" + mine.getId().length() + "] ");
                        dispatcher.include(request, response);
                    }
                    case "/async" -> request.startAsync().dispatch(other, "/target?from=async");
                    default -> throw new IllegalArgumentException(request.getPathInfo());
                }
            }
        }, "/go/*").setAsyncSupported(true);

        ServletContextHandler b = new ServletContextHandler("/b");
        b.setClassLoader(loaderB);
        b.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                HttpSession session = request.getSession();
                boolean sameId = session.getId().equals(request.getAttribute("aSessionId"));
                session.setAttribute("seen", "b");
                response.getWriter().print(request.getDispatcherType() + " context=" + request.getContextPath()
                    + " servletContext=" + request.getServletContext().getContextPath()
                    + " loader=" + Thread.currentThread().getContextClassLoader().getName()
                    + " from=" + request.getParameter("from") + " owner=" + session.getAttribute("owner")
                    + " sameId=" + sameId + " noCrossing=" + (getServletContext().getContext("/a/go") == null));
            }
        }, "/target");

        ContextHandlerCollection contexts = new ContextHandlerCollection(a.getContextHandler(), b.getContextHandler());
        server.setHandler(contexts);
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void forwardRunsTheOtherContextWithItsLoaderPathsAndItsOwnSessionUnderTheSameId() throws Exception {
        String response = connector.getResponse("GET /a/go/forward HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        assertEquals("FORWARD context=/b servletContext=/b loader=context-b from=a owner=null sameId=true noCrossing=true",
            content(response));
        assertTrue(header(response, "Set-Cookie").contains("Path=/a"), "the client gets the one id, for the first context");
    }

    @Test
    void includeAddsTheOtherContextsOutput() throws Exception {
        assertEquals("a[32] INCLUDE context=/a servletContext=/b loader=context-b from=a owner=null sameId=true noCrossing=true",
            content(connector.getResponse("GET /a/go/include HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")));
    }

    @Test
    void anAsyncDispatchCanGoToTheOtherContext() throws Exception {
        assertEquals("ASYNC context=/b servletContext=/b loader=context-b from=async owner=null sameId=true noCrossing=true",
            content(connector.getResponse("GET /a/go/async HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")));
    }
}
