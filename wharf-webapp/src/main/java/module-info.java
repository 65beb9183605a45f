/**
 * Wharf's web applications (Jakarta Servlet 6.1 chapters 8 and 10): {@code io.wharf.webapp.descriptor}
 * parses web.xml and web-fragment.xml into an immutable model, orders fragments and merges them;
 * {@code io.wharf.webapp.scan} reads the servlet annotations of WEB-INF/classes and WEB-INF/lib
 * jars with ASM, without loading a class; {@code io.wharf.webapp} deploys an application from a
 * WAR or a directory: its class loader, its servlet context on wharf-servlet, its
 * {@code java:comp/env}; and a deployer keeps a webapps directory deployed on a running server.
 * The model and the scanner know nothing of the container; only {@code io.wharf.webapp} uses it.
 * The legacy javax mode converts a javax.servlet application with the Eclipse Transformer, which
 * is required only statically: without it everything else works, and that mode says what is missing.
 */
module io.wharf.webapp {
    requires transitive jakarta.servlet;
    requires transitive io.wharf.servlet;
    requires java.xml;
    requires java.naming;
    requires org.objectweb.asm;
    requires static org.eclipse.transformer;

    // A deployment finds the applications' and the container's initializers (Servlet 6.1 section 8.2.4).
    uses jakarta.servlet.ServletContainerInitializer;

    exports io.wharf.webapp;
    exports io.wharf.webapp.descriptor;
    exports io.wharf.webapp.scan;
    // JNDI makes the java: URL context factory reflectively, by its conventional name.
    exports io.wharf.webapp.internal.naming.java to java.naming;
}
