package io.wharf.examples;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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

import io.wharf.jsp.JspInitializer;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.MemoryLoginService;
import io.wharf.servlet.security.SecurityConstraint;

/**
 * The demo's servlet section at {@code /servlet}: a servlet that counts a session's visits, a
 * filter that stamps every response, an asynchronous servlet answered a second later by
 * another thread while no server thread waits, an account page behind FORM login (user
 * {@code demo}, password {@code demo}), and a JSP page with JSTL ({@code /servlet/clock.jsp},
 * compiled by Jasper through wharf-jsp).
 */
final class DemoServlets {

    private DemoServlets() {
    }

    private static final String CLOCK_PAGE = """
        <%@ page contentType="text/html;charset=UTF-8" %>
        <%@ taglib prefix="c" uri="jakarta.tags.core" %>
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>A JSP page</title><link rel="stylesheet" href="/style.css"></head>
        <body><h1>A JSP page</h1>
        <p>It is <%= java.time.LocalTime.now().withNano(0) %> on the server; this page was compiled by Jasper.</p>
        <ul><c:forEach var="protocol" items="${['HTTP/1.1', 'HTTP/2', 'WebSocket']}"><li>${protocol}</li></c:forEach></ul>
        <p>You asked over ${pageContext.request.protocol}.</p></body></html>
        """;

    /** @return the servlet section, its JSP pages written under {@code site}/servlet-pages */
    static ServletContextHandler context(Path site) throws IOException {
        Path pages = Files.createDirectories(site.resolve("servlet-pages"));
        Files.writeString(pages.resolve("clock.jsp"), CLOCK_PAGE);
        ServletContextHandler context = new ServletContextHandler("/servlet");
        context.setDisplayName("Wharf demo servlets");
        context.setBaseResource(pages);
        JspInitializer.enable(context);
        context.addServlet(new Visits(), "", "/visits");
        context.addServlet(new Slow(), "/async").setAsyncSupported(true);
        context.addServlet(new Account(), "/account");
        context.addServlet(new LoginPage(), "/login", "/login-failed");
        context.addFilter(new Stamp(), "/*", EnumSet.of(DispatcherType.REQUEST)).setAsyncSupported(true);
        context.setLoginService(new MemoryLoginService("Wharf demo").addUser("demo", "demo", "user"));
        context.setLoginConfig(LoginConfig.form("/login", "/login-failed"));
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/account"), "user"));
        return context;
    }

    private static PrintWriter page(HttpServletResponse response, String title) throws IOException {
        response.setContentType("text/html;charset=utf-8");
        PrintWriter out = response.getWriter();
        out.print("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + title
            + "</title><link rel=\"stylesheet\" href=\"/style.css\"></head><body><h1>" + title + "</h1>");
        return out;
    }

    /** The section's home: visits counted in the session, and links to the rest. */
    static final class Visits extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            HttpSession session = request.getSession();
            Integer visits = (Integer) session.getAttribute("visits");
            session.setAttribute("visits", visits = visits == null ? 1 : visits + 1);
            PrintWriter out = page(response, "Servlets on Wharf");
            out.print("<p>Visit " + visits + " of this session, over " + request.getProtocol() + ".</p><ul>"
                + "<li><a href=\"" + request.getContextPath() + "/async\">/servlet/async</a> &mdash; answered a second later by "
                + "another thread; no server thread waits</li>"
                + "<li><a href=\"" + request.getContextPath() + "/account\">/servlet/account</a> &mdash; behind FORM login: "
                + "user <code>demo</code>, password <code>demo</code></li>"
                + "<li><a href=\"" + request.getContextPath() + "/clock.jsp\">/servlet/clock.jsp</a> &mdash; a JSP page with "
                + "JSTL</li></ul></body></html>");
        }
    }

    /** Answers a second later, from another thread. */
    static final class Slow extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) {
            AsyncContext async = request.startAsync();
            CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS).execute(() -> {
                try {
                    page((HttpServletResponse) async.getResponse(), "Answered later").print(
                        "<p>This page was written a second after you asked, by another thread.</p></body></html>");
                } catch (IOException ignored) {
                    // The client went away.
                }
                async.complete();
            });
        }
    }

    /** Who is logged in; only users in role {@code user} get here. */
    static final class Account extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
            if (request.getParameter("logout") != null) {
                request.logout();
                request.getSession().invalidate();
                response.sendRedirect(request.getContextPath() + "/");
                return;
            }
            page(response, "Your account").print("<p>Logged in as <b>" + request.getRemoteUser() + "</b> by "
                + request.getAuthType() + ". <a href=\"?logout\">Log out</a></p></body></html>");
        }
    }

    /** The login form, and the same form after a failed attempt. */
    static final class LoginPage extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            boolean failed = request.getServletPath().equals("/login-failed");
            page(response, failed ? "Wrong name or password" : "Log in").print("<form method=\"post\" action=\""
                + request.getContextPath() + "/j_security_check\"><p><input name=\"j_username\" placeholder=\"demo\"> "
                + "<input name=\"j_password\" type=\"password\" placeholder=\"demo\"> <button>Log in</button></p></form>"
                + "</body></html>");
        }
    }

    /** Stamps every response with the server that answered it. */
    static final class Stamp implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            ((HttpServletResponse) response).setHeader("X-Served-By", "Wharf servlets");
            chain.doFilter(request, response);
        }
    }
}
