package webapps;

import java.io.IOException;

import jakarta.servlet.annotation.WebInitParam;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Declared by its annotation only. */
@WebServlet(urlPatterns = "/annotated", initParams = @WebInitParam(name = "mood", value = "sunny"))
public class AnnotatedServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print("annotated " + getInitParameter("mood"));
    }
}
