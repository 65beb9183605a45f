package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.Part;

import io.wharf.servlet.ServletContextHandler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A servlet context driven by clients this project did not write, over HTTP/1.1, h2c and h2 over
 * TLS: curl uploads a megabyte that a servlet echoes with a ReadListener and a WriteListener (no
 * thread parked), keeps a session in its cookie jar and fetches ranges of a static file through
 * the default servlet; Python's httpx keeps a session over h2 with TLS, posts a form and a
 * multipart upload.
 */
@Timeout(120)
class ServletRealClientsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private LoopbackServer server;

    @BeforeEach
    void start() throws Exception {
        Path site = Files.createDirectories(directory.resolve("site"));
        Files.writeString(site.resolve("letters.txt"), "abcdefghijklmnopqrstuvwxyz");
        ServletContextHandler context = new ServletContextHandler("/app");
        context.setBaseResource(site);
        context.setTempDirectory(directory.resolve("work"));
        context.addServlet(new NonBlockingEcho(), "/echo").setAsyncSupported(true);
        context.addServlet(new Counter(), "/count");
        context.addServlet(new Form(), "/form");
        context.addServlet(new Upload(), "/upload").setMultipartConfig(new MultipartConfigElement(""));
        server = new LoopbackServer(context, leaks.pool(), directory);
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    /** Echoes the request body with a ReadListener and a WriteListener, as it arrives. */
    static final class NonBlockingEcho extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            AsyncContext async = request.startAsync();
            ServletInputStream input = request.getInputStream();
            ServletOutputStream output = response.getOutputStream();
            response.setContentType("application/octet-stream");
            byte[] buffer = new byte[16 * 1024];
            Runnable pump = () -> {
                try {
                    while (input.isReady() && output.isReady()) {
                        int read = input.read(buffer);
                        if (read < 0) {
                            return;
                        }
                        output.write(buffer, 0, read);
                    }
                } catch (IOException x) {
                    async.complete();
                }
            };
            input.setReadListener(new ReadListener() {
                @Override
                public void onDataAvailable() {
                    pump.run();
                }

                @Override
                public void onAllDataRead() {
                    async.complete();
                }

                @Override
                public void onError(Throwable failure) {
                    async.complete();
                }
            });
            output.setWriteListener(new WriteListener() {
                @Override
                public void onWritePossible() {
                    pump.run();
                    if (input.isFinished()) {
                        async.complete();
                    }
                }

                @Override
                public void onError(Throwable failure) {
                    async.complete();
                }
            });
        }
    }

    /** Counts the requests of a session. */
    static final class Counter extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            HttpSession session = request.getSession();
            Integer count = (Integer) session.getAttribute("count");
            count = count == null ? 1 : count + 1;
            session.setAttribute("count", count);
            response.getWriter().print("count=" + count + " protocol=" + request.getProtocol());
        }
    }

    /** Prints the parameters of a form post. */
    static final class Form extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getWriter().print(request.getParameter("name") + "/" + request.getParameter("lang") + "/"
                + request.getParameter("q"));
        }
    }

    /** Prints the parts of a multipart post. */
    static final class Upload extends HttpServlet {
        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
            StringBuilder out = new StringBuilder();
            for (Part part : request.getParts()) {
                out.append(part.getName()).append('=').append(new String(part.getInputStream().readAllBytes())).append(';');
            }
            response.getWriter().print(out);
        }
    }

    private String base(String protocol) {
        return server.origin(protocol) + "/app";
    }

    private String curl(String protocol, String... arguments) throws Exception {
        return server.curl(protocol, arguments);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http/1.1", "h2c", "h2"})
    void curlUploadsAMegabyteThatANonBlockingServletEchoes(String protocol) throws Exception {
        byte[] upload = new byte[1024 * 1024];
        new Random(18).nextBytes(upload);
        Path file = directory.resolve("upload.bin");
        Files.write(file, upload);
        Path echoed = directory.resolve("echoed.bin");
        String status = curl(protocol, "-o", echoed.toString(), "-w", "%{http_code} %{http_version}",
            "--data-binary", "@" + file, "-H", "Content-Type: application/octet-stream", base(protocol) + "/echo");
        assertEquals("200 " + (protocol.equals("http/1.1") ? "1.1" : "2"), status);
        assertEquals(sha256(upload), sha256(Files.readAllBytes(echoed)));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http/1.1", "h2c", "h2"})
    void curlKeepsASessionInItsCookieJarAndFetchesRanges(String protocol) throws Exception {
        String jar = directory.resolve("cookies.txt").toString();
        String expectedProtocol = protocol.equals("http/1.1") ? "HTTP/1.1" : "HTTP/2.0";
        assertEquals("count=1 protocol=" + expectedProtocol, curl(protocol, "-c", jar, "-b", jar, base(protocol) + "/count"));
        assertEquals("count=2 protocol=" + expectedProtocol, curl(protocol, "-c", jar, "-b", jar, base(protocol) + "/count"));
        assertEquals("defgh", curl(protocol, "-r", "3-7", base(protocol) + "/letters.txt"));
        String notFound = curl(protocol, "-w", "%{http_code}", "-o", "/dev/null", base(protocol) + "/WEB-INF/web.xml");
        assertEquals("404", notFound);
    }

    @Test
    void httpxKeepsASessionPostsAFormAndUploadsOverH2WithTls() throws Exception {
        String output = PythonClients.run("servlet_httpx.py", base("h2"), server.pem().toString());
        assertEquals("""
            HTTP/2 200 count=1 protocol=HTTP/2.0
            HTTP/2 200 count=2 protocol=HTTP/2.0
            HTTP/2 200 wharf/java/query
            HTTP/2 200 note=n;file=file content;
            """, output);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
