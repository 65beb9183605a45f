package webapps.slow;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.webapp.Gate;

/**
 * Answers its {@code version} init parameter; with {@code ?wait} it first waits at the test's
 * {@link Gate}. It records when it answered a waiting request and when it was destroyed.
 */
public class SlowServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String version = getInitParameter("version");
        boolean wait = request.getParameter("wait") != null;
        if (wait) {
            Gate.enter();
        }
        response.setContentType("text/plain");
        response.getWriter().print("version " + version);
        response.flushBuffer();
        if (wait) {
            Gate.record(version + " answered");
        }
    }

    @Override
    public void destroy() {
        Gate.record(getInitParameter("version") + " destroyed");
    }
}
