package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.header;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;


import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The default servlet: static resources through the core ResourceHandler, welcome files, protected directories. */
class DefaultServletTest extends ServletTestCase {

    @TempDir
    Path root;

    @BeforeEach
    void files() throws IOException {
        Files.writeString(root.resolve("hello.txt"), "hello, file");
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(root.resolve("docs/index.html"), "<p>docs index</p>");
        Files.createDirectories(root.resolve("app"));
        Files.createDirectories(root.resolve("WEB-INF"));
        Files.writeString(root.resolve("WEB-INF/web.xml"), "<secret/>");
        Files.writeString(root.resolve("big.bin"), "b".repeat(200_000));
        Files.writeString(root.resolve("page.jsp"), "<% String secret = \"s3cr3t\"; %>");
        Files.writeString(root.resolve("page.JSPX"), "<jsp:root/>");
    }

    private ServletTester start() throws Exception {
        tester("/ctx");
        tester.context.setBaseResource(root);
        return tester;
    }

    @Test
    void servesAFileWithValidatorsAndAnswersConditionsAndRanges() throws Exception {
        start().start();
        String response = tester.get("/ctx/hello.txt");
        assertEquals(200, status(response));
        assertEquals("hello, file", content(response));
        assertEquals("text/plain;charset=utf-8", header(response, "Content-Type"));
        assertEquals("11", header(response, "Content-Length"));
        String etag = header(response, "ETag");
        assertNotNull(etag);
        assertNotNull(header(response, "Last-Modified"));
        assertEquals(304, status(tester.request("GET /ctx/hello.txt HTTP/1.1\nHost: t\nIf-None-Match: " + etag
            + "\nConnection: close\n\n")));
        String range = tester.request("GET /ctx/hello.txt HTTP/1.1\nHost: t\nRange: bytes=7-\nConnection: close\n\n");
        assertEquals(206, status(range));
        assertEquals("file", content(range));
        String head = tester.request("HEAD /ctx/hello.txt HTTP/1.1\nHost: t\nConnection: close\n\n");
        assertEquals("11", header(head, "Content-Length"));
        assertEquals("", content(head));
        String big = tester.get("/ctx/big.bin");
        assertEquals(200_000, content(big).length());
    }

    @Test
    void missingFilesAndWebInfAre404ThroughTheErrorPages() throws Exception {
        start();
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print("custom 404 for " + request.getAttribute("jakarta.servlet.error.request_uri"));
            }
        }, "/404");
        tester.context.addErrorPage(404, "/404");
        tester.start();
        String missing = tester.get("/ctx/missing.txt");
        assertEquals(404, status(missing));
        assertEquals("custom 404 for /ctx/missing.txt", content(missing));
        assertEquals(404, status(tester.get("/ctx/WEB-INF/web.xml")));
        assertEquals(404, status(tester.get("/ctx/web-inf/web.xml")));
        assertEquals(404, status(tester.get("/ctx/META-INF/MANIFEST.MF")));
        assertEquals(404, status(tester.get("/ctx/page.jsp")), "without a JSP servlet a page's source is not sent");
        assertEquals(404, status(tester.get("/ctx/page.JSPX")));
        tester.close();
        tester("/ctx");
        tester.context.setBaseResource(root);
        tester.context.setWelcomeFiles(List.of("page.jsp"));
        tester.start();
        assertTrue(!content(tester.get("/ctx/")).contains("s3cr3t"), "nor as a welcome file");
        assertTrue(!tester.get("/ctx/WEB-INF/web.xml").contains("secret"));
        int traversal = status(tester.get("/ctx/docs/%2e%2e/WEB-INF/web.xml"));
        assertTrue(traversal == 400 || traversal == 404, "traversal answered " + traversal);
    }

    @Test
    void welcomeFilesServeAResourceOrForwardToAServlet() throws Exception {
        start();
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print("welcome servlet at " + request.getServletPath());
            }
        }, "*.do");
        tester.context.setWelcomeFiles(List.of("index.html", "start.do"));
        tester.start();
        assertEquals("<p>docs index</p>", content(tester.get("/ctx/docs/")));
        assertEquals("welcome servlet at /app/start.do", content(tester.get("/ctx/app/")));
        String redirect = tester.get("/ctx/docs");
        assertEquals(302, status(redirect));
        assertTrue(header(redirect, "Location").endsWith("/ctx/docs/"), header(redirect, "Location"));
    }

    /** A welcome file that is there as a file but mapped by extension (index.jsp) runs its servlet; its source never goes out. */
    @Test
    void aWelcomeFileMappedToAServletIsForwardedEvenWhenTheFileIsThere() throws Exception {
        Files.writeString(root.resolve("app/index.jsp"), "<% secret source %>");
        start();
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print("page servlet at " + request.getServletPath());
            }
        }, "*.jsp");
        tester.start();
        assertEquals("page servlet at /app/index.jsp", content(tester.get("/ctx/app/")));
        assertEquals("<p>docs index</p>", content(tester.get("/ctx/docs/")));
    }

    /** Upper-cases all the content through a response wrapper, to prove wrapped responses see the bytes. */
    static final class UpperCase implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
            HttpServletResponseWrapper wrapper = new HttpServletResponseWrapper((HttpServletResponse) response) {
                @Override
                public jakarta.servlet.ServletOutputStream getOutputStream() {
                    return new jakarta.servlet.ServletOutputStream() {
                        @Override
                        public void write(int b) {
                            captured.write(b);
                        }

                        @Override
                        public boolean isReady() {
                            return true;
                        }

                        @Override
                        public void setWriteListener(jakarta.servlet.WriteListener listener) {
                        }
                    };
                }

                @Override
                public void setContentLengthLong(long length) {
                }
            };
            chain.doFilter(request, wrapper);
            response.getOutputStream().write(captured.toString().toUpperCase().getBytes());
        }
    }

    @Test
    void aFilterThatWrapsTheResponseSeesTheFile() throws Exception {
        start();
        tester.context.addFilter(new UpperCase(), "*.txt", EnumSet.of(DispatcherType.REQUEST));
        tester.start();
        assertEquals("HELLO, FILE", content(tester.get("/ctx/hello.txt")));
    }

    @Test
    void anIncludedResourceIsCopiedIntoTheIncludingResponse() throws Exception {
        start();
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                response.setContentType("text/plain");
                response.getWriter().print("[");
                request.getRequestDispatcher("/hello.txt").include(request, response);
                response.getWriter().print("]");
            }
        }, "/page");
        tester.start();
        String response = tester.get("/ctx/page");
        assertEquals("[hello, file]", content(response));
        assertEquals("text/plain;charset=ISO-8859-1", header(response, "Content-Type"));
    }

    @Test
    void withoutABaseEverythingIs404AndTheApplicationMayMapSlashItself() throws Exception {
        tester("/");
        tester.start();
        assertEquals(404, status(tester.get("/anything")));
        assertNull(header(tester.get("/anything"), "ETag"));
        tester.close();

        tester("/");
        tester.context.setBaseResource(root);
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print("mine");
            }
        }, "/");
        tester.start();
        assertEquals("mine", content(tester.get("/hello.txt")));
        assertTrue(tester.context.getServletContext().getServletRegistration("default").getMappings().isEmpty());
    }

    /**
     * An application on {@code /} still finds the default servlet by name, unmapped, and hands it
     * the files it does not serve itself, as Spring MVC's default servlet handling does; the file
     * served is the request's own path.
     */
    @Test
    void anApplicationOnSlashForwardsToTheDefaultServletByName() throws Exception {
        start();
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                if (request.getServletPath().startsWith("/api/")) {
                    response.getWriter().print("api");
                } else {
                    getServletContext().getNamedDispatcher("default").forward(request, response);
                }
            }
        }, "/");
        tester.start();
        assertEquals("api", content(tester.get("/ctx/api/x")));
        String file = tester.get("/ctx/hello.txt");
        assertEquals(200, status(file));
        assertEquals("hello, file", content(file));
        assertEquals(404, status(tester.get("/ctx/missing.txt")));
        assertEquals(404, status(tester.get("/ctx/WEB-INF/web.xml")));
    }

    /** An application that names its own servlet {@code default} keeps it; the container's takes another name. */
    @Test
    void anApplicationServletNamedDefaultKeepsTheName() throws Exception {
        start();
        tester.context.getServletContext().addServlet("default", new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print("own default");
            }
        }).addMapping("/own/*");
        tester.start();
        assertEquals("own default", content(tester.get("/ctx/own/x")));
        assertEquals("hello, file", content(tester.get("/ctx/hello.txt")));
        assertEquals(List.of("/"), List.copyOf(tester.context.getServletContext().getServletRegistration("wharf.default").getMappings()));
    }
}
