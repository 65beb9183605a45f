package io.wharf.tests.architecture.layer;

import java.io.IOException;

import javax.naming.InitialContext;
import javax.naming.NamingException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Looks up {@code java:comp/env/greeting} the way applications do, and says which module answered. */
public final class EnvLookupServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        try {
            InitialContext context = new InitialContext();
            Object greeting = context.lookup("java:comp/env/greeting");
            response.getWriter().print(greeting + " " + context.lookup("java:comp/env").getClass().getModule().getName());
        } catch (NamingException e) {
            response.getWriter().print("lookup failed: " + e);
        }
    }
}
