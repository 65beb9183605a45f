package webapps;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Says its init parameter, the context parameter {@code site}, and which loader defined it; keeps a session. */
public class HelloServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // A session holding one of the application's objects: its store and expiry timer must not outlive the application.
        request.getSession().setAttribute("last", new AppException("visited"));
        response.setContentType("text/plain");
        response.getWriter().print("hello " + getInitParameter("greeting") + " from " + getServletContext().getInitParameter("site")
            + " by " + getClass().getClassLoader().getClass().getSimpleName()
            + " context " + Thread.currentThread().getContextClassLoader().getClass().getSimpleName());
    }
}
