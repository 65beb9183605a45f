package webapps;

import java.io.IOException;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** An error page: prints the status and exception type of the error it shows. */
public class ErrorServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        Object type = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION_TYPE);
        response.getWriter().print("error page: status " + request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE)
            + (type == null ? "" : " exception " + ((Class<?>) type).getName()));
    }
}
