/**
 * Wharf's web applications (Jakarta Servlet 6.1 chapters 8 and 10): {@code io.wharf.webapp.descriptor}
 * parses web.xml and web-fragment.xml into an immutable model, orders fragments and merges them;
 * {@code io.wharf.webapp.scan} reads the servlet annotations of WEB-INF/classes and WEB-INF/lib
 * jars with ASM, without loading a class; {@code io.wharf.webapp} holds the application's class
 * loader (section 10.7.2). It knows nothing of the container yet: it needs neither wharf-servlet
 * nor wharf-server.
 */
module io.wharf.webapp {
    requires transitive jakarta.servlet;
    requires java.xml;
    requires org.objectweb.asm;

    exports io.wharf.webapp;
    exports io.wharf.webapp.descriptor;
    exports io.wharf.webapp.scan;
}
