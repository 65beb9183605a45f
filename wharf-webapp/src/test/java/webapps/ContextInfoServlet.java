package webapps;

import java.io.IOException;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Prints the context settings a descriptor gives: display name, session settings, encodings, a MIME mapping. */
public class ContextInfoServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ServletContext context = getServletContext();
        response.setContentType("text/plain");
        response.getWriter().print("name=" + context.getServletContextName()
            + " timeout=" + context.getSessionTimeout()
            + " cookie=" + context.getSessionCookieConfig().getName()
            + " httpOnly=" + context.getSessionCookieConfig().isHttpOnly()
            + " modes=" + context.getEffectiveSessionTrackingModes()
            + " request=" + context.getRequestCharacterEncoding()
            + " response=" + context.getResponseCharacterEncoding()
            + " mime=" + context.getMimeType("notes.wharf")
            + " tempdir=" + (context.getAttribute(ServletContext.TEMPDIR) != null));
    }
}
