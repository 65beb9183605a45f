package webapps;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Test servlet of the web application tests: whether the user is in the role names it uses in its code. */
public class RoleServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.getWriter().print(request.getRemoteUser() + " boss=" + request.isUserInRole("boss") + " admin="
            + request.isUserInRole("admin"));
    }
}
