package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Section 10.5: a client request under WEB-INF or META-INF is 404 even when a servlet maps it
 * (a page servlet by extension, as JSP does), while the application still forwards there.
 */
class ProtectedPathsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private ServletTester tester;

    @AfterEach
    void stop() throws Exception {
        tester.close();
    }

    @Test
    void aRequestUnderWebInfIsNotFoundWhateverMapsIt() throws Exception {
        tester = new ServletTester(leaks.pool(), "/ctx");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print("page " + request.getServletPath());
            }
        }, "*.page");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                request.getRequestDispatcher("/WEB-INF/views/inside.page").forward(request, response);
            }
        }, "/go");
        tester.start();
        assertEquals("page /open.page", content(tester.get("/ctx/open.page")));
        for (String path : new String[] {"/ctx/WEB-INF/views/inside.page", "/ctx/web-inf/views/inside.page", "/ctx/META-INF/x.page",
                "/ctx/WEB-INF", "/ctx/a/../WEB-INF/views/inside.page", "/ctx/%57EB-INF/views/inside.page"}) {
            assertEquals(404, status(tester.get(path)), path);
        }
        assertEquals("page /WEB-INF/views/inside.page", content(tester.get("/ctx/go")));
    }
}
