package io.wharf.jsp;

import java.util.Set;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;

import io.wharf.jsp.internal.JasperSetup;
import io.wharf.servlet.ServletContextHandler;

/**
 * Turns JSP on for a servlet context: Apache Jasper's {@code JspServlet} becomes the context's
 * servlet named {@code jsp}, mapped to {@code *.jsp} and {@code *.jspx}, and the context gets
 * what Jasper needs — an {@code org.apache.tomcat.InstanceManager}, the tag libraries (TLDs)
 * found in {@code /WEB-INF} and in the jars on the context's class loader (JSTL's among them),
 * and a scratch directory for the compiled pages under the context's temporary directory.
 * Pages come from the context's base resource ({@link ServletContextHandler#setBaseResource}).
 *
 * <p>Embedding code calls {@link #enable(ServletContextHandler)} before the context starts:
 * <pre>{@code
 * ServletContextHandler context = new ServletContextHandler("/");
 * context.setBaseResource(Path.of("webapp"));
 * JspInitializer.enable(context).setInitParameter("development", "false");
 * context.getServletContext().addJspFile("hello", "/WEB-INF/hello.jsp").addMapping("/hello");
 * }</pre>
 * A web application deployer finds this class with {@link java.util.ServiceLoader} as a
 * {@link ServletContainerInitializer} (it is declared in {@code META-INF/services} and in the
 * module descriptor) and runs it like any other.
 *
 * <p>A {@code jsp} servlet the application declared itself (in web.xml, say) is kept, with its
 * init parameters; the initializer only fills in the scratch directory it lacks, and maps the
 * JSP extensions that no other servlet maps.
 *
 * <p><b>Threads.</b> The context runs {@link #onStartup} on the thread that starts it, with the
 * context's class loader as the thread's context class loader, before its listeners and
 * servlets; {@link #enable} on the configuring thread. An instance holds no state and may serve
 * several contexts.
 */
public final class JspInitializer implements ServletContainerInitializer {

    /** The name of the JSP servlet, whose class and init parameters {@code addJspFile} copies (Servlet 6.1 section 4.4.1.3). */
    public static final String SERVLET_NAME = "jsp";

    /** For {@link java.util.ServiceLoader}; embedding code calls {@link #enable}. */
    public JspInitializer() {
    }

    /**
     * Turns JSP on for {@code context}, which has not started: registers the {@code jsp}
     * servlet now, so {@code ServletContext.addJspFile} works before the start, and adds this
     * initializer to do the rest when the context starts.
     *
     * @return the {@code jsp} servlet's registration, for Jasper's init parameters
     *     ({@code development}, {@code modificationTestInterval}, {@code compilerClassName}...);
     *     pages added with {@code addJspFile} afterwards copy them
     */
    public static ServletRegistration.Dynamic enable(ServletContextHandler context) {
        ServletRegistration.Dynamic jsp = JasperSetup.registerJspServlet(context.getServletContext());
        context.addServletContainerInitializer(new JspInitializer());
        return jsp;
    }

    /** Sets Jasper up in {@code context} as it starts; see the class comment. */
    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) throws ServletException {
        JasperSetup.registerJspServlet(context);
        JasperSetup.prepare(context);
    }
}
