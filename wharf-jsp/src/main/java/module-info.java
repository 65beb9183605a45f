/**
 * JSP pages and JSTL for Wharf's servlet container, through Apache Jasper:
 * {@link io.wharf.jsp.JspInitializer} turns JSP on for a servlet context, from embedding code
 * or found by a deployer through {@link java.util.ServiceLoader}.
 *
 * <p>Jasper (the {@code org.mortbay.jasper:apache-jsp} jar) has no module descriptor: it is the
 * automatic module {@code org.mortbay.apache.jasper}, which reads every module, so the Eclipse
 * compiler and the Expression Language implementation it loads need only be on the module
 * path too. JSTL is not required here: the pages use it, and its implementation jar's
 * automatic module name, {@code jakarta.servlet.jsp.jstl}, is its API's module name, so the
 * two belong on the class path (or in a web application's class loader), where Jasper's TLD
 * scan finds them.
 */
module io.wharf.jsp {
    requires transitive io.wharf.servlet;
    requires jakarta.servlet.jsp;
    requires org.mortbay.apache.jasper;

    exports io.wharf.jsp;
    // The container makes the jsp servlet by reflection.
    exports io.wharf.jsp.internal to io.wharf.servlet;

    provides jakarta.servlet.ServletContainerInitializer with io.wharf.jsp.JspInitializer;
}
