package io.wharf.jsp;

import static io.wharf.jsp.JspTester.content;
import static io.wharf.jsp.JspTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.jasper.servlet.JspServlet;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How JSP is turned on and wired into the context: {@link JspInitializer#enable} and the
 * initializer a deployer finds with ServiceLoader, welcome files, {@code addJspFile}, an
 * application's own {@code jsp} servlet, the scratch directory, a restart.
 */
class JspInitializerTest {

    @RegisterExtension
    final JspTester tester = new JspTester();


    @Test
    void indexJspIsAWelcomeFile() throws Exception {
        JspInitializer.enable(tester.context);
        tester.page("/index.jsp", "<%= \"root\" + \" index\" %> at ${pageContext.request.servletPath}")
            .page("/sub/index.jsp", "<%= \"sub\" + \" index\" %> at ${pageContext.request.servletPath}")
            .start();
        assertEquals("root index at /index.jsp", content(tester.get("/ctx/")).strip());
        assertEquals("sub index at /sub/index.jsp", content(tester.get("/ctx/sub/")).strip());
    }

    @Test
    void addJspFileBeforeTheStartServesAPageAtAPath() throws Exception {
        ServletRegistration.Dynamic jsp = JspInitializer.enable(tester.context);
        jsp.setInitParameter("trimSpaces", "true");
        ServletRegistration.Dynamic hello = tester.context.getServletContext().addJspFile("hello", "/WEB-INF/pages/hello.jsp");
        hello.addMapping("/hello/*");
        tester.page("/WEB-INF/pages/hello.jsp", "hello from <%= request.getServletPath() %>, info ${pageContext.request.pathInfo}").start();
        assertEquals("hello from /hello, info /there", content(tester.get("/ctx/hello/there")).strip());
        assertEquals(jsp.getClassName(), hello.getClassName(), "the jsp servlet's class serves the file");
        assertTrue(JspServlet.class.isAssignableFrom(Class.forName(hello.getClassName())));
        assertEquals("/WEB-INF/pages/hello.jsp", hello.getInitParameter("jspFile"));
        assertEquals("true", hello.getInitParameter("trimSpaces"));
        assertNotNull(hello.getInitParameter("scratchdir"));
        // The page is not served as itself: WEB-INF stays out of reach.
        assertEquals(404, status(tester.get("/ctx/WEB-INF/pages/hello.jsp")));
    }

    /** The initializer as a deployer runs it: found by ServiceLoader; the application adds its pages from a listener. */
    @Test
    void theInitializerFoundByServiceLoaderAndAPageAddedByAListener() throws Exception {
        ServletContainerInitializer found = ServiceLoader.load(ServletContainerInitializer.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(JspInitializer.class::isInstance)
            .findFirst().orElseThrow();
        tester.context.addServletContainerInitializer(found);
        tester.context.addEventListener(new ServletContextListener() {
            @Override
            public void contextInitialized(ServletContextEvent event) {
                event.getServletContext().addJspFile("about", "about.jsp").addMapping("/about");
            }
        });
        tester.page("/about.jsp", "about <%= application.getServletRegistration(\"about\").getInitParameter(\"jspFile\") %>")
            .page("/plain.jsp", "plain ${1 + 1}")
            .start();
        assertEquals("about /about.jsp", content(tester.get("/ctx/about")).strip());
        assertEquals("plain 2", content(tester.get("/ctx/plain.jsp")).strip());
        ServletRegistration jsp = tester.context.getServletContext().getServletRegistration(JspInitializer.SERVLET_NAME);
        assertEquals(Set.of("*.jsp", "*.jspx"), Set.copyOf(jsp.getMappings()));

        tester.context.stop();
        tester.context.start();
        assertEquals("about /about.jsp", content(tester.get("/ctx/about")).strip(), "after a restart");
        assertEquals("plain 2", content(tester.get("/ctx/plain.jsp")).strip(), "after a restart");
    }

    /** A {@code jsp} servlet the application declared keeps its settings; an extension another servlet maps stays with it. */
    @Test
    void theApplicationsOwnJspServletAndMappingsAreKept() throws Exception {
        ServletRegistration.Dynamic own = tester.context.getServletContext().addServlet(JspInitializer.SERVLET_NAME, JspServlet.class);
        own.setInitParameter("development", "false");
        own.addMapping("*.page");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print("not a page");
            }
        }, "*.jspx");
        assertSame(own, JspInitializer.enable(tester.context));
        tester.page("/a.page", "page ${2 * 21}").page("/b.jspx", "<x/>").page("/c.jsp", "jsp ${3}").start();
        assertEquals("page 42", content(tester.get("/ctx/a.page")).strip());
        assertEquals("not a page", content(tester.get("/ctx/b.jspx")));
        assertEquals("jsp 3", content(tester.get("/ctx/c.jsp")).strip());
        assertEquals(Set.of("*.page", "*.jsp"), Set.copyOf(own.getMappings()));
        assertEquals("false", own.getInitParameter("development"));
    }

    /** Pages compile under the context's temporary directory, which stays: what was compiled is reused after a restart. */
    @Test
    void pagesCompileUnderTheContextsTemporaryDirectory() throws Exception {
        JspInitializer.enable(tester.context);
        tester.page("/where.jsp", "<%= application.getAttribute(ServletContext.TEMPDIR) %>").start();
        Path temp = tester.directory.resolve("temp");
        assertEquals(temp.toString(), content(tester.get("/ctx/where.jsp")).strip());
        try (var compiled = Files.walk(temp.resolve("jsp"))) {
            assertTrue(compiled.anyMatch(file -> file.getFileName().toString().equals("where_jsp.class")));
        }
        tester.server.stop();
        assertTrue(Files.isDirectory(temp.resolve("jsp")));
    }

    /** A context without a temporary directory set gets a private one from the container, for its pages too, deleted when it stops. */
    @Test
    void withoutATemporaryDirectoryAPrivateOneIsMadeAndDeleted() throws Exception {
        tester.context.setTempDirectory(null);
        JspInitializer.enable(tester.context);
        AtomicReference<Object> tempDir = new AtomicReference<>();
        tester.context.addEventListener(new ServletContextListener() {
            @Override
            public void contextInitialized(ServletContextEvent event) {
                tempDir.set(event.getServletContext().getAttribute(ServletContext.TEMPDIR));
            }
        });
        tester.page("/p.jsp", "p").start();
        assertEquals("p", content(tester.get("/ctx/p.jsp")).strip());
        File made = assertInstanceOf(File.class, tempDir.get());
        assertTrue(made.isDirectory());
        tester.server.stop();
        assertFalse(made.exists(), made + " is left behind");
        assertEquals(null, tester.context.getServletContext().getAttribute(ServletContext.TEMPDIR));
    }
}
