package webapps;

import java.io.IOException;

import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.NamingException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/** Looks up java:comp/env the way applications do and prints what it got. */
public class EnvServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        StringBuilder out = new StringBuilder();
        try {
            InitialContext initial = new InitialContext();
            out.append("greeting=").append(initial.lookup("java:comp/env/greeting"));
            Object count = initial.lookup("java:comp/env/count");
            out.append(" count=").append(count).append(" (").append(count.getClass().getSimpleName()).append(")");
            Context env = (Context) initial.lookup("java:comp/env");
            out.append(" store=").append(env.lookup("jdbc/store"));
        } catch (NamingException e) {
            out.append(" failed: ").append(e);
        }
        try {
            new InitialContext().lookup("java:comp/env/jdbc/missing");
            out.append(" missing found?");
        } catch (NamingException e) {
            out.append(" missing: ").append(e.getMessage());
        }
        response.getWriter().print(out);
    }
}
