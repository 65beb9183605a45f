package io.wharf.webapp.internal;

import java.util.List;
import java.util.Set;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;

import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.ServletMapping;

/**
 * Registers the servlets a descriptor declares with a {@code <jsp-file>}, and their mappings,
 * with {@code ServletContext.addJspFile} as the context starts: that needs the {@code jsp}
 * servlet, which wharf-jsp's initializer registers when it runs, so this initializer is added
 * after every discovered one. Without wharf-jsp on the container's class path the start fails
 * saying so. Made by {@link DescriptorApplier}; run on the starting thread.
 */
final class JspFileServlets implements ServletContainerInitializer {

    private final List<ServletDefinition> servlets;
    private final List<ServletMapping> mappings;

    /** @param servlets the JSP-file servlets; @param mappings their mappings */
    JspFileServlets(List<ServletDefinition> servlets, List<ServletMapping> mappings) {
        this.servlets = List.copyOf(servlets);
        this.mappings = List.copyOf(mappings);
    }

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) throws ServletException {
        for (ServletDefinition servlet : servlets) {
            ServletRegistration.Dynamic registration;
            try {
                registration = context.addJspFile(servlet.name(), servlet.jspFile().orElseThrow());
            } catch (UnsupportedOperationException e) {
                throw new ServletException("servlet " + servlet.name() + " is the JSP file " + servlet.jspFile().orElseThrow()
                    + ": JSP needs wharf-jsp, the JSP engine, on the server's class path (" + e.getMessage() + ")", e);
            }
            registration.setInitParameters(servlet.initParams());
            servlet.loadOnStartup().ifPresent(registration::setLoadOnStartup);
            servlet.asyncSupported().ifPresent(registration::setAsyncSupported);
            servlet.multipartConfig().map(config -> new MultipartConfigElement(config.location(), config.maxFileSize(),
                config.maxRequestSize(), config.fileSizeThreshold())).ifPresent(registration::setMultipartConfig);
            servlet.runAs().ifPresent(registration::setRunAsRole);
        }
        for (ServletMapping mapping : mappings) {
            Set<String> conflicts = context.getServletRegistration(mapping.servletName()).addMapping(mapping.urlPatterns().toArray(String[]::new));
            if (!conflicts.isEmpty()) {
                throw new ServletException("servlet " + mapping.servletName() + ": url-patterns " + conflicts + " are mapped to another servlet");
            }
        }
    }

    @Override
    public String toString() {
        return "JspFileServlets" + servlets.stream().map(ServletDefinition::name).toList();
    }
}
