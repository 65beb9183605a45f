package io.wharf.webapp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Test helper: a real javax.servlet application, its classes compiled here with the JDK's
 * compiler against the Servlet 4.0 API ({@code javax.servlet:javax.servlet-api}, a test
 * dependency), as an {@link Archive}. It has, in web.xml with the Java EE 4.0 schema, a listener
 * that marks the context, a filter that stamps a header on every response and a servlet with an
 * init parameter; an {@code @WebServlet} class; and a WEB-INF/lib jar with a Java EE web-fragment
 * declaring a servlet and a {@code META-INF/services/javax.servlet.ServletContainerInitializer}
 * that adds another.
 */
final class JavaxApp {

    private static final Map<String, String> SOURCES = Map.of(
        "legacy/HelloServlet.java", """
            package legacy;
            import java.io.IOException;
            import javax.servlet.http.HttpServlet;
            import javax.servlet.http.HttpServletRequest;
            import javax.servlet.http.HttpServletResponse;
            public class HelloServlet extends HttpServlet {
                @Override
                protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                    response.setContentType("text/plain;charset=utf-8");
                    response.getWriter().print("hello from javax, " + getServletContext().getAttribute("legacy.started")
                        + ", greeting " + getInitParameter("greeting"));
                }
            }
            """,
        "legacy/StampFilter.java", """
            package legacy;
            import java.io.IOException;
            import javax.servlet.Filter;
            import javax.servlet.FilterChain;
            import javax.servlet.ServletException;
            import javax.servlet.ServletRequest;
            import javax.servlet.ServletResponse;
            import javax.servlet.http.HttpServletResponse;
            public class StampFilter implements Filter {
                @Override
                public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
                    ((HttpServletResponse) response).setHeader("X-Legacy-Filter", "stamped");
                    chain.doFilter(request, response);
                }
            }
            """,
        "legacy/StartListener.java", """
            package legacy;
            import javax.servlet.ServletContextEvent;
            import javax.servlet.ServletContextListener;
            public class StartListener implements ServletContextListener {
                @Override
                public void contextInitialized(ServletContextEvent event) {
                    event.getServletContext().setAttribute("legacy.started", "started by the listener");
                }
            }
            """,
        "legacy/AnnotatedServlet.java", """
            package legacy;
            import java.io.IOException;
            import javax.servlet.annotation.WebInitParam;
            import javax.servlet.annotation.WebServlet;
            import javax.servlet.http.HttpServlet;
            import javax.servlet.http.HttpServletRequest;
            import javax.servlet.http.HttpServletResponse;
            @WebServlet(urlPatterns = "/annotated", initParams = @WebInitParam(name = "origin", value = "its annotation"))
            public class AnnotatedServlet extends HttpServlet {
                @Override
                protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                    response.setContentType("text/plain;charset=utf-8");
                    response.getWriter().print("annotated javax servlet, configured by " + getInitParameter("origin"));
                }
            }
            """,
        "legacy/lib/LibServlet.java", """
            package legacy.lib;
            import java.io.IOException;
            import javax.servlet.GenericServlet;
            import javax.servlet.ServletRequest;
            import javax.servlet.ServletResponse;
            public class LibServlet extends GenericServlet {
                @Override
                public void service(ServletRequest request, ServletResponse response) throws IOException {
                    response.setContentType("text/plain;charset=utf-8");
                    response.getWriter().print("javax jar servlet from " + getInitParameter("origin"));
                }
            }
            """,
        "legacy/lib/LibInitializer.java", """
            package legacy.lib;
            import java.util.Set;
            import javax.servlet.ServletContainerInitializer;
            import javax.servlet.ServletContext;
            import javax.servlet.ServletRegistration;
            public class LibInitializer implements ServletContainerInitializer {
                @Override
                public void onStartup(Set<Class<?>> classes, ServletContext context) {
                    ServletRegistration.Dynamic servlet = context.addServlet("from-initializer", LibServlet.class);
                    servlet.setInitParameter("origin", "its initializer");
                    servlet.addMapping("/from-initializer");
                }
            }
            """);

    /** web.xml in the Java EE 4.0 schema (javax.servlet). */
    static final String WEB_XML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee"
                 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                 xsi:schemaLocation="http://xmlns.jcp.org/xml/ns/javaee http://xmlns.jcp.org/xml/ns/javaee/web-app_4_0.xsd"
                 version="4.0">
          <display-name>Legacy</display-name>
          <listener><listener-class>legacy.StartListener</listener-class></listener>
          <filter><filter-name>stamp</filter-name><filter-class>legacy.StampFilter</filter-class></filter>
          <filter-mapping><filter-name>stamp</filter-name><url-pattern>/*</url-pattern></filter-mapping>
          <servlet>
            <servlet-name>hello</servlet-name><servlet-class>legacy.HelloServlet</servlet-class>
            <init-param><param-name>greeting</param-name><param-value>ahoy</param-value></init-param>
          </servlet>
          <servlet-mapping><servlet-name>hello</servlet-name><url-pattern>/hello</url-pattern></servlet-mapping>
        </web-app>
        """;

    private static final String FRAGMENT = """
        <?xml version="1.0" encoding="UTF-8"?>
        <web-fragment xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="4.0">
          <name>legacy-lib</name>
          <servlet>
            <servlet-name>fragment</servlet-name><servlet-class>legacy.lib.LibServlet</servlet-class>
            <init-param><param-name>origin</param-name><param-value>its fragment</param-value></init-param>
          </servlet>
          <servlet-mapping><servlet-name>fragment</servlet-name><url-pattern>/fragment</url-pattern></servlet-mapping>
        </web-fragment>
        """;

    private JavaxApp() {
    }

    /**
     * @param work an empty directory for the sources and classes
     * @return the whole application
     */
    static Archive build(Path work) throws IOException {
        Path classes = compile(work);
        Archive lib = new Archive()
            .add("legacy/lib/LibServlet.class", Files.readAllBytes(classes.resolve("legacy/lib/LibServlet.class")))
            .add("legacy/lib/LibInitializer.class", Files.readAllBytes(classes.resolve("legacy/lib/LibInitializer.class")))
            .text("META-INF/web-fragment.xml", FRAGMENT)
            .text("META-INF/services/javax.servlet.ServletContainerInitializer", "legacy.lib.LibInitializer\n");
        Archive app = new Archive().text("WEB-INF/web.xml", WEB_XML).jar("WEB-INF/lib/legacy-lib.jar", lib);
        for (String name : List.of("HelloServlet", "StampFilter", "StartListener", "AnnotatedServlet")) {
            app.add("WEB-INF/classes/legacy/" + name + ".class", Files.readAllBytes(classes.resolve("legacy/" + name + ".class")));
        }
        return app.text("index.html", "<p>a javax application</p>");
    }

    private static Path compile(Path work) throws IOException {
        Path sources = work.resolve("src");
        for (Map.Entry<String, String> source : SOURCES.entrySet()) {
            Path file = sources.resolve(source.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
        }
        Path classes = work.resolve("classes");
        List<String> arguments;
        try (Stream<Path> files = Files.walk(sources)) {
            arguments = Stream.concat(Stream.of("--release", "11", "-d", classes.toString(), "-cp", servletApiJar().toString()),
                files.filter(Files::isRegularFile).map(Path::toString)).toList();
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, arguments.toArray(String[]::new)), "javac of the javax application");
        return classes;
    }

    /** @return the javax.servlet-api jar on the test class path */
    private static Path servletApiJar() {
        try {
            return Path.of(Class.forName("javax.servlet.Servlet").getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (ReflectiveOperationException | java.net.URISyntaxException e) {
            throw new AssertionError("javax.servlet:javax.servlet-api is a test dependency of wharf-webapp", e);
        }
    }
}
