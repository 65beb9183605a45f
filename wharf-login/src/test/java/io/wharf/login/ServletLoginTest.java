package io.wharf.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.LoginService;
import io.wharf.servlet.security.SecurityConstraint;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each store behind a servlet context's security, over an in-memory connector: BASIC login
 * with a password file and with H2 tables, FORM login with a password file, and DIGEST, which
 * one-way hashes cannot answer.
 */
class ServletLoginTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private Server server;
    private LocalConnector connector;
    private String database;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
        if (database != null) {
            try (Connection connection = DriverManager.getConnection(database); Statement statement = connection.createStatement()) {
                statement.execute("SHUTDOWN");
            }
        }
    }

    /** Prints who the request's user is. */
    static final class WhoAmI extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getWriter().print("user=" + request.getRemoteUser() + " type=" + request.getAuthType() + " admin=" + request.isUserInRole("admin"));
        }
    }

    /** Starts a context whose /admin/* needs the role admin and /user/* any user, with {@code users} and {@code login}. */
    private ServletContextHandler start(LoginService users, LoginConfig login, boolean start) throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setSendDateHeader(false);
        configuration.setSendServerVersion(false);
        connector = new LocalConnector(server, new HttpConnectionFactory(configuration));
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        context.setLoginService(users);
        context.setLoginConfig(login);
        context.addServlet(new WhoAmI(), "/admin/*", "/user/*");
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/admin/*"), "admin"));
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/user/*"), "**"));
        server.setHandler(context);
        if (start) {
            server.start();
        }
        return context;
    }

    private PasswordFileLoginService fileStore() throws IOException {
        Path file = Files.write(directory.resolve("users.txt"), List.of(
            "ann:" + PasswordFileTest.ANN + ":admin,user",
            "carol:" + PasswordHashTest.HTPASSWD_BCRYPT + ":user"));
        return new PasswordFileLoginService("Staff", file);
    }

    private JdbcLoginService tableStore() throws SQLException {
        database = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        JdbcLoginService users = JdbcLoginService.forUrl("Staff", database, null, null, UserTables.DEFAULT);
        users.createTablesIfMissing();
        users.addUser("ann", "secret", "admin", "user");
        users.addUser("carol", "U*U pass", "user");
        return users;
    }

    private String get(String target, String... lines) throws Exception {
        StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: test\r\n");
        for (String line : lines) {
            request.append(line).append("\r\n");
        }
        return connector.getResponse(request.append("Connection: close\r\n\r\n").toString());
    }

    private static String basic(String user, String password) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static String status(String response) {
        return response.substring(9, 12);
    }

    private static String content(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    private void basicLogins() throws Exception {
        assertEquals("401", status(get("/admin/x")));
        assertEquals("user=ann type=BASIC admin=true", content(get("/admin/x", basic("ann", "secret"))));
        assertEquals("401", status(get("/admin/x", basic("ann", "wrong"))));
        assertEquals("401", status(get("/admin/x", basic("nobody", "secret"))));
        assertEquals("403", status(get("/admin/x", basic("carol", "U*U pass"))));
        assertEquals("user=carol type=BASIC admin=false", content(get("/user/x", basic("carol", "U*U pass"))));
    }

    @Test
    void basicLoginWithAPasswordFile() throws Exception {
        start(fileStore(), LoginConfig.basic("Staff"), true);
        basicLogins();
    }

    @Test
    void basicLoginWithSqlTables() throws Exception {
        start(tableStore(), LoginConfig.basic("Staff"), true);
        basicLogins();
    }

    @Test
    void anUnreadableUserStoreIsAServerErrorNotAWrongPassword() throws Exception {
        start(tableStore(), LoginConfig.basic("Staff"), true);
        try (Connection connection = DriverManager.getConnection(database); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE users");
        }
        assertEquals("500", status(get("/admin/x", basic("ann", "secret"))));
    }

    @Test
    void formLoginWithAPasswordFile() throws Exception {
        ServletContextHandler context = start(fileStore(), LoginConfig.form("/login.html", "/error.html"), false);
        context.addServlet(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print(request.getServletPath());
            }
        }, "/login.html", "/error.html");
        server.start();
        String page = get("/admin/x");
        assertEquals("/login.html", content(page));
        String session = cookie(page);
        assertEquals("/error.html", content(post(session, "j_username=ann&j_password=wrong")));
        String loggedIn = post(session, "j_username=ann&j_password=secret");
        assertEquals("303", status(loggedIn));
        assertEquals("user=ann type=FORM admin=true", content(get("/admin/x", "Cookie: " + cookie(loggedIn))));
    }

    private String post(String cookie, String body) throws Exception {
        return connector.getResponse("POST /j_security_check HTTP/1.1\r\nHost: test\r\nCookie: " + cookie
            + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n" + body);
    }

    private static String cookie(String response) {
        for (String line : response.split("\r\n")) {
            if (line.regionMatches(true, 0, "Set-Cookie:", 0, 11)) {
                return line.substring(11, line.indexOf(';')).strip();
            }
        }
        throw new AssertionError("no cookie in " + response);
    }

    @Test
    void digestLoginFailsForOneWayHashes() throws Exception {
        start(fileStore(), LoginConfig.digest("Staff"), true);
        String challenge = get("/admin/x");
        assertEquals("401", status(challenge));
        assertTrue(challenge.contains("WWW-Authenticate: Digest"), challenge);
        String nonce = challenge.replaceAll("(?s).*nonce=\"([^\"]+)\".*", "$1");
        String answer = "Authorization: Digest username=\"ann\", realm=\"Staff\", nonce=\"" + nonce + "\", uri=\"/admin/x\", qop=auth, "
            + "nc=00000001, cnonce=\"c\", response=\"00000000000000000000000000000000\", algorithm=MD5";
        assertEquals("401", status(get("/admin/x", answer)), "no secret to check against: never logged in");
    }
}
