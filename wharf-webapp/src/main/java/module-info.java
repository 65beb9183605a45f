/**
 * Wharf's reader of a web application's metadata (Jakarta Servlet 6.1 chapter 8 and the
 * deployment descriptor schema): {@code io.wharf.webapp.descriptor} parses web.xml and
 * web-fragment.xml into an immutable model, orders fragments and merges them;
 * {@code io.wharf.webapp.scan} reads the servlet annotations of WEB-INF/classes and
 * WEB-INF/lib jars with ASM, without loading a class. It knows nothing of the container that
 * will apply the model: it needs neither wharf-servlet nor wharf-server.
 */
module io.wharf.webapp {
    requires transitive jakarta.servlet;
    requires java.xml;
    requires org.objectweb.asm;

    exports io.wharf.webapp.descriptor;
    exports io.wharf.webapp.scan;
}
