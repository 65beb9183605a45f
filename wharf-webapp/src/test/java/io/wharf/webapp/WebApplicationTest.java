package io.wharf.webapp;

import static io.wharf.testing.RawResponse.content;
import static io.wharf.testing.RawResponse.header;
import static io.wharf.testing.RawResponse.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import io.wharf.servlet.security.MemoryLoginService;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import webapps.GuardedServlet;
import webapps.HelloServlet;
import webapps.RoleServlet;

/** A web application deployed from a WAR or a directory onto a running server, checked with raw HTTP. */
class WebApplicationTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path temp;

    private DeployTester tester;
    private WebApplication application;

    @BeforeEach
    void startServer() throws Exception {
        tester = new DeployTester(leaks.pool(), temp).start();
    }

    @AfterEach
    void stopServer() throws Exception {
        try {
            tester.close();
        } finally {
            if (application != null) {
                application.close();
            }
        }
    }

    private WebApplication deploy(String contextPath, Path source) throws Exception {
        application = WebApplication.prepare(contextPath, source, tester.settings.withResource("jdbc/store", "the store"));
        tester.contexts.addHandler(application.contextHandler());
        return application;
    }

    @Test
    void servesAWarsServletsFromWebXmlAnnotationsAFragmentAndAnInitializer() throws Exception {
        deploy("/harbour", TestApps.full().writeZip(temp.resolve("harbour.war")));

        String hello = tester.get("/harbour/hello");
        assertEquals(200, status(hello), hello);
        assertEquals("hello ahoy from the harbour by WebAppClassLoader context WebAppClassLoader", content(hello));
        assertEquals("annotated sunny", content(tester.get("/harbour/annotated")));
        assertEquals("fragment from a jar", content(tester.get("/harbour/fragment")));
        assertEquals("plugins [webapps.sci.ClockPlugin@app, webapps.sci.WeatherPlugin@app]", content(tester.get("/harbour/plugins")));
        assertEquals("from the container's initializer", content(tester.get("/harbour/container")));
    }

    /** Section 8.2.4: an absolute ordering that leaves a jar out leaves out its initializer too (and its fragment). */
    @Test
    void anAbsoluteOrderingLeavesOutTheInitializersOfTheJarsItExcludes() throws Exception {
        Archive app = TestApps.full();
        Archive ordered = new Archive().webXml("""
            <absolute-ordering/>
            <servlet><servlet-name>hello</servlet-name><servlet-class>webapps.HelloServlet</servlet-class></servlet>
            <servlet-mapping><servlet-name>hello</servlet-name><url-pattern>/hello</url-pattern></servlet-mapping>
            """).classes("WEB-INF/classes/", HelloServlet.class, webapps.AppException.class);
        app.entries().forEach((name, bytes) -> {
            if (name.startsWith("WEB-INF/lib/")) {
                ordered.add(name, bytes);
            }
        });
        deploy("/ordered", ordered.writeZip(temp.resolve("ordered.war")));

        assertEquals(200, status(tester.get("/ordered/hello")));
        assertEquals(404, status(tester.get("/ordered/plugins")), "the plugins jar's initializer did not run");
        assertEquals(404, status(tester.get("/ordered/fragment")), "nor was its fragment merged");
        assertEquals("from the container's initializer", content(tester.get("/ordered/container")), "the container's still runs");
    }

    @Test
    void appliesFiltersInOrderErrorPagesWelcomeFilesAndContextSettings() throws Exception {
        deploy("/harbour", TestApps.full().writeZip(temp.resolve("harbour.war")));

        String hello = tester.get("/harbour/hello");
        assertEquals("b", header(hello, "X-Trace"), "the filter mapped first by its mapping runs first: " + hello);
        assertTrue(hello.contains("X-Trace: b\r\nX-Trace: a\r\n"), hello);

        String missing = tester.get("/harbour/nowhere");
        assertEquals(404, status(missing), missing);
        assertEquals("error page: status 404", content(missing));
        String failing = tester.get("/harbour/fail");
        assertEquals(500, status(failing), failing);
        assertEquals("error page: status 500 exception webapps.AppException", content(failing));

        assertEquals("<h1>welcome aboard</h1>", content(tester.get("/harbour/")));
        assertEquals("start here", content(tester.get("/harbour/docs/")));
        String notes = tester.get("/harbour/notes.wharf");
        assertEquals("text/x-wharf", header(notes, "Content-Type").replaceAll(";.*", ""), notes);
        assertEquals(404, status(tester.get("/harbour/WEB-INF/web.xml")));

        assertEquals("name=Harbour timeout=7 cookie=HARBOURSESSION httpOnly=true modes=[COOKIE] request=UTF-8 response=UTF-8"
            + " mime=text/x-wharf tempdir=true", content(tester.get("/harbour/info")));
    }

    @Test
    void givesAServletItsMultipartConfig() throws Exception {
        deploy("/harbour", TestApps.full().writeZip(temp.resolve("harbour.war")));
        String body = """
            --wharf\r
            Content-Disposition: form-data; name="file"; filename="cargo.txt"\r
            Content-Type: text/plain\r
            \r
            %s\r
            --wharf--\r
            """;

        String small = tester.post("/harbour/upload", "multipart/form-data; boundary=wharf", body.formatted("crates"));
        assertEquals(200, status(small), small);
        assertEquals("file cargo.txt: 6 bytes", content(small));
        String large = tester.post("/harbour/upload", "multipart/form-data; boundary=wharf", body.formatted("x".repeat(2000)));
        assertTrue(status(large) >= 400, "the multipart-config's max-file-size (1024) holds: " + large);
    }

    @Test
    void looksUpEnvEntriesAndResourceRefsThroughJndi() throws Exception {
        deploy("/harbour", TestApps.full().writeZip(temp.resolve("harbour.war")));

        String env = content(tester.get("/harbour/env"));
        assertTrue(env.startsWith("greeting=ahoy from the environment count=42 (Integer) store=the store missing: "), env);
        assertTrue(env.contains("java:comp/env/jdbc/missing is declared by a <resource-ref> (javax.sql.DataSource) but the server"
            + " was given no resource 'jdbc/missing'"), env);
    }

    @Test
    void servesAnExplodedDirectoryInPlace() throws Exception {
        Path directory = TestApps.full().writeDirectory(temp.resolve("exploded"));
        WebApplication app = deploy("/", directory);

        assertEquals(directory, app.root());
        assertEquals("annotated sunny", content(tester.get("/annotated")));
        Files.writeString(directory.resolve("fresh.html"), "written after the deployment");
        assertEquals("written after the deployment", content(tester.get("/fresh.html")), "static files are served from the directory itself");
    }

    @Test
    void closingDeletesTheWorkDirectoryAndClosesTheLoader() throws Exception {
        WebApplication app = deploy("/harbour", TestApps.full().writeZip(temp.resolve("harbour.war")));
        assertEquals(200, status(tester.get("/harbour/hello")));
        Path work = app.workDirectory();
        assertTrue(Files.isRegularFile(work.resolve("webapp/WEB-INF/web.xml")), "the WAR is extracted under the work directory");
        assertTrue(app.classLoader().findResource("META-INF/web-fragment.xml") != null);

        tester.contexts.removeHandler(app.contextHandler());
        app.close();
        application = null;

        assertFalse(Files.exists(work));
        assertEquals(404, status(tester.get("/harbour/hello")));
        assertEquals(null, app.classLoader().findResource("META-INF/web-fragment.xml"), "a closed loader reads nothing from its jars");
    }

    @Test
    void refusesAJavaxApplicationSayingWhatToDo() throws Exception {
        Path war = new Archive().text("WEB-INF/web.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="4.0"/>
            """).writeZip(temp.resolve("legacy.war"));

        DeploymentException refused = assertThrows(DeploymentException.class, () -> deploy("/legacy", war));
        assertTrue(refused.getMessage().startsWith(war + " is a javax.servlet application (Servlet 4 or earlier); Wharf runs Jakarta"
            + " Servlet 5+ applications. Evidence: "), refused.getMessage());
        assertTrue(refused.getMessage().endsWith(" The legacy javax mode converts it at deployment with the Eclipse Transformer:"
            + " WebAppSettings.withLegacyJavax(true), or ./wharf serve --legacy-javax"), refused.getMessage());
        assertWorkDirectoriesGone();
    }

    @Test
    void refusesAWarWhoseEntriesClimbOutOfItsDirectory() throws Exception {
        for (String entry : List.of("../escaped.txt", "WEB-INF/../../escaped.txt", "/tmp/escaped.txt", "..\\escaped.txt")) {
            Path war = new Archive().webXml("").text(entry, "got out").writeZip(temp.resolve("slip.war"));

            DeploymentException refused = assertThrows(DeploymentException.class, () -> deploy("/slip", war), entry);
            assertTrue(refused.getMessage().startsWith(war + ": entry '" + entry + "' "), refused.getMessage());
            assertTrue(refused.getMessage().endsWith("outside the web application's directory; refused"), refused.getMessage());
        }
        try (var files = Files.walk(temp)) {
            assertEquals(List.of(), files.filter(file -> file.getFileName().toString().contains("escaped")).toList());
        }
        assertWorkDirectoriesGone();
    }

    /** A constraint from web.xml, BASIC login from web.xml, and a servlet's own @ServletSecurity, checked against the server's users. */
    @Test
    void enforcesTheSecurityOfTheDescriptorAndOfAnnotations() throws Exception {
        Path war = securedApp().writeZip(temp.resolve("secure.war"));
        application = WebApplication.prepare("/secure", war, tester.settings.withLoginService(
            new MemoryLoginService("Harbour").addUser("ann", "secret", "admin").addUser("bob", "pw", "user")));
        tester.contexts.addHandler(application.contextHandler());
        String ann = "Authorization: Basic " + Base64.getEncoder().encodeToString("ann:secret".getBytes(StandardCharsets.UTF_8));
        String bob = "Authorization: Basic " + Base64.getEncoder().encodeToString("bob:pw".getBytes(StandardCharsets.UTF_8));

        String anonymous = tester.get("/secure/admin/hello");
        assertEquals(401, status(anonymous), anonymous);
        assertTrue(header(anonymous, "WWW-Authenticate").startsWith("Basic realm=\"Harbour Docks\""), anonymous);
        assertEquals(403, status(tester.get("/secure/admin/hello", bob)));
        String admin = tester.get("/secure/admin/hello", ann);
        assertEquals(200, status(admin), admin);
        assertTrue(content(admin).startsWith("hello null from null by WebAppClassLoader"), admin);
        assertEquals(200, status(tester.get("/secure/open")), "what no constraint covers is open");

        assertEquals(401, status(tester.get("/secure/guarded")), "@ServletSecurity on the class protects it");
        assertEquals(403, status(tester.get("/secure/guarded", bob)));
        assertEquals("guarded, for ann", content(tester.get("/secure/guarded", ann)));
    }

    @Test
    void refusesSecurityItCannotCheckWithoutALoginService() throws Exception {
        Path war = securedApp().writeZip(temp.resolve("secure.war"));

        DeploymentException refused = assertThrows(DeploymentException.class, () -> deploy("/secure", war));
        assertEquals("the application has <security-constraint>, <login-config>, @ServletSecurity (servlet webapps.GuardedServlet)"
            + " but the server was given no LoginService to check its users with (WebAppSettings.withLoginService);"
            + " it is not deployed unprotected", refused.getMessage());
    }

    /** A security-role-ref links the role name the servlet's code uses to the application's role (section 13.3). */
    @Test
    void linksAServletsRoleNameToTheApplicationsRole() throws Exception {
        Path war = new Archive().webXml("""
            <servlet>
              <servlet-name>roles</servlet-name><servlet-class>webapps.RoleServlet</servlet-class>
              <security-role-ref><role-name>boss</role-name><role-link>admin</role-link></security-role-ref>
            </servlet>
            <servlet-mapping><servlet-name>roles</servlet-name><url-pattern>/roles</url-pattern></servlet-mapping>
            <security-constraint>
              <web-resource-collection><web-resource-name>all</web-resource-name><url-pattern>/*</url-pattern></web-resource-collection>
              <auth-constraint><role-name>admin</role-name></auth-constraint>
            </security-constraint>
            <login-config><auth-method>BASIC</auth-method></login-config>
            <security-role><role-name>admin</role-name></security-role>
            """).classes("WEB-INF/classes/", RoleServlet.class).writeZip(temp.resolve("linked.war"));
        application = WebApplication.prepare("/linked", war, tester.settings.withLoginService(
            new MemoryLoginService("Harbour").addUser("ann", "secret", "admin")));
        tester.contexts.addHandler(application.contextHandler());
        String ann = "Authorization: Basic " + Base64.getEncoder().encodeToString("ann:secret".getBytes(StandardCharsets.UTF_8));
        assertEquals("ann boss=true admin=true", content(tester.get("/linked/roles", ann)));
    }

    private static Archive securedApp() {
        return new Archive().webXml("""
            <servlet><servlet-name>hello</servlet-name><servlet-class>webapps.HelloServlet</servlet-class></servlet>
            <servlet-mapping><servlet-name>hello</servlet-name><url-pattern>/admin/*</url-pattern></servlet-mapping>
            <servlet-mapping><servlet-name>hello</servlet-name><url-pattern>/open</url-pattern></servlet-mapping>
            <security-constraint>
              <web-resource-collection><web-resource-name>admin</web-resource-name><url-pattern>/admin/*</url-pattern></web-resource-collection>
              <auth-constraint><role-name>admin</role-name></auth-constraint>
            </security-constraint>
            <login-config><auth-method>BASIC</auth-method><realm-name>Harbour Docks</realm-name></login-config>
            <security-role><role-name>admin</role-name></security-role>
            <security-role><role-name>user</role-name></security-role>
            """).classes("WEB-INF/classes/", HelloServlet.class, GuardedServlet.class);
    }

    /** wharf-jsp is not on this module's class path: a <jsp-file> servlet fails the start, saying what it needs (ServeTest runs one with it). */
    @Test
    void aJspFileServletWithoutWharfJspFailsTheStartNamingTheModuleItNeeds() throws Exception {
        Path war = new Archive().webXml("""
            <servlet><servlet-name>page</servlet-name><jsp-file>/page.jsp</jsp-file></servlet>
            <servlet-mapping><servlet-name>page</servlet-name><url-pattern>/page</url-pattern></servlet-mapping>
            """).writeZip(temp.resolve("jsp.war"));
        application = WebApplication.prepare("/jsp", war, tester.settings);

        Exception failure = assertThrows(Exception.class, () -> tester.contexts.addHandler(application.contextHandler()));
        StringBuilder messages = new StringBuilder();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            messages.append(cause.getMessage()).append('\n');
        }
        assertTrue(messages.toString().contains("servlet page is the JSP file /page.jsp: JSP needs wharf-jsp, the JSP engine,"
            + " on the server's class path"), messages.toString());
    }

    @Test
    void refusesAListenerClassTheApplicationDoesNotHave() throws Exception {
        Path war = new Archive().webXml("<listener><listener-class>webapps.Nowhere</listener-class></listener>")
            .writeZip(temp.resolve("broken.war"));

        DeploymentException refused = assertThrows(DeploymentException.class, () -> deploy("/broken", war));
        assertTrue(refused.getMessage().contains("webapps.Nowhere"), refused.getMessage());
    }

    private void assertWorkDirectoriesGone() throws Exception {
        try (var files = Files.list(tester.settings.tempDirectory())) {
            assertEquals(List.of(), files.filter(file -> !file.getFileName().toString().equals("scan-cache")).toList(),
                "a refused deployment leaves no work directory");
        }
    }
}
