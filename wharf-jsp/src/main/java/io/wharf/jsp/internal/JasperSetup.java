package io.wharf.jsp.internal;

import java.nio.file.Path;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;

import org.apache.jasper.compiler.TldCache;
import org.apache.jasper.servlet.JasperInitializer;
import org.apache.jasper.servlet.JspServlet;
import org.apache.tomcat.JarScanner;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * What {@link io.wharf.jsp.JspInitializer} does to a servlet context, step by step: the
 * {@code jsp} servlet's registration, then, as the context starts, what Jasper reads from the
 * context — its scratch directory and compiler class path (init parameters of every Jasper
 * servlet), the {@code JarScanner} that finds the jars on the context's class loader, and what
 * Jasper's own {@link JasperInitializer} sets: the tag library cache it fills by scanning
 * {@code /WEB-INF} and those jars for TLDs, the listeners the TLDs declare, and the
 * {@code InstanceManager} that makes tag handlers.
 *
 * <p>Called on the thread that configures or starts the context, while its registrations are
 * open. Stateless.
 */
public final class JasperSetup {

    /** The extensions of JSP pages in standard syntax and in XML syntax (JSP 4.0 section 3.3). */
    private static final String[] PATTERNS = {"*.jsp", "*.jspx"};

    private JasperSetup() {
    }

    /**
     * Registers Jasper's {@link JspServlet}, with its periodic events ({@link PeriodicJspServlet}), as the servlet {@code jsp}, loaded on start-up,
     * unless the context has a {@code jsp} servlet already (declared by the application, whose
     * settings are kept); then maps the JSP extensions that no other servlet maps to it, so no
     * page goes out as a file.
     *
     * @return the {@code jsp} servlet's registration
     * @throws IllegalStateException when the context's {@code jsp} servlet cannot be configured
     */
    public static ServletRegistration.Dynamic registerJspServlet(ServletContext context) {
        ServletRegistration existing = context.getServletRegistration(io.wharf.jsp.JspInitializer.SERVLET_NAME);
        ServletRegistration.Dynamic jsp;
        if (existing == null) {
            jsp = context.addServlet(io.wharf.jsp.JspInitializer.SERVLET_NAME, PeriodicJspServlet.class);
            jsp.setLoadOnStartup(0);
        } else if (existing instanceof ServletRegistration.Dynamic dynamic) {
            jsp = dynamic;
        } else {
            throw new IllegalStateException("the servlet context's 'jsp' servlet " + existing.getClassName() + " cannot be configured");
        }
        for (String pattern : PATTERNS) {
            // One at a time: addMapping maps none of its patterns when one is taken.
            jsp.addMapping(pattern);
        }
        return jsp;
    }

    /**
     * Prepares what Jasper reads from {@code context} as it starts: runs before the context's
     * servlets are initialized, so every Jasper servlet sees it.
     *
     * @throws ServletException when the scratch directory cannot be made or a TLD cannot be read
     */
    public static void prepare(ServletContext context) throws ServletException {
        Path scratch = ScratchDirectory.prepare(context);
        String classPath = CompilerClassPath.of(context.getClassLoader());
        for (ServletRegistration registration : context.getServletRegistrations().values()) {
            if ((JspServlet.class.getName().equals(registration.getClassName()) || PeriodicJspServlet.class.getName().equals(registration.getClassName()))
                    && registration instanceof ServletRegistration.Dynamic jasper) {
                // Kept when the application set them: setInitParameter changes nothing then.
                jasper.setInitParameter("scratchdir", scratch.toString());
                jasper.setInitParameter("classpath", classPath);
            }
        }
        if (context.getAttribute(JarScanner.class.getName()) == null) {
            context.setAttribute(JarScanner.class.getName(), new StandardJarScanner());
        }
        // Once a start, though a deployer's initializer may run after enable()'s: the scan adds the TLDs' listeners.
        if (context.getAttribute(TldCache.SERVLET_CONTEXT_ATTRIBUTE_NAME) == null) {
            new JasperInitializer().onStartup(null, context);
            // A restart scans again, since it forgets the listeners this start added.
            context.addListener(new ServletContextListener() {
                @Override
                public void contextDestroyed(ServletContextEvent event) {
                    event.getServletContext().removeAttribute(TldCache.SERVLET_CONTEXT_ATTRIBUTE_NAME);
                }
            });
        }
    }
}
