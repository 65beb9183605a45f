package io.wharf.examples;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.MemoryLoginService;
import io.wharf.servlet.security.SecurityConstraint;

/**
 * A servlet context embedded in a server, on port 8080 (or the first argument): a servlet that
 * counts visits in the session at {@code /app/hello}, a filter that times every request, an
 * asynchronous servlet answered from another thread at {@code /app/async}, and a page only the
 * user {@code admin} (password {@code admin}) may see, with BASIC login, at {@code /app/admin}.
 */
public final class ServletExample {

    private ServletExample() {
    }

    /** Counts the visits of a session. */
    static final class Hello extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            HttpSession session = request.getSession();
            Integer visits = (Integer) session.getAttribute("visits");
            session.setAttribute("visits", visits = visits == null ? 1 : visits + 1);
            response.setContentType("text/plain;charset=utf-8");
            response.getWriter().println("Hello " + (request.getRemoteUser() == null ? "visitor" : request.getRemoteUser())
                + ", visit " + visits + " over " + request.getProtocol());
        }
    }

    /** Answers from another thread, while no server thread waits. */
    static final class Later extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) {
            AsyncContext async = request.startAsync();
            CompletableFuture.runAsync(() -> {
                try {
                    async.getResponse().getWriter().println("answered later");
                } catch (IOException ignored) {
                    // The client went away.
                }
                async.complete();
            });
        }
    }

    /** Marks every response with the time its request started, before the servlet runs. */
    static final class Timing implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            long start = System.nanoTime();
            ((HttpServletResponse) response).setHeader("X-Started", Long.toString(start));
            chain.doFilter(request, response);
        }
    }

    /** @return the context of this example, not started */
    public static ServletContextHandler context() {
        ServletContextHandler context = new ServletContextHandler("/app");
        context.addServlet(new Hello(), "/hello", "/admin");
        context.addServlet(new Later(), "/async").setAsyncSupported(true);
        // A filter in front of an asynchronous servlet must support async too (Servlet 6.1 section 2.3.3.3).
        context.addFilter(new Timing(), "/*", EnumSet.of(DispatcherType.REQUEST)).setAsyncSupported(true);
        context.setLoginService(new MemoryLoginService("Example").addUser("admin", "admin", "admin"));
        context.setLoginConfig(LoginConfig.basic("Example"));
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/admin"), "admin"));
        return context;
    }

    public static void main(String[] args) throws Exception {
        Server server = new Server(args.length > 0 ? Integer.parseInt(args[0]) : 8080, new HttpConnectionFactory());
        server.setHandler(context());
        server.setStopAtShutdown(true);
        server.start();
        System.out.println("try " + server.getURI() + "app/hello, app/async and app/admin (admin/admin)");
        server.join();
    }
}
