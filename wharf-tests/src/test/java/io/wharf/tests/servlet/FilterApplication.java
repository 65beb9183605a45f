package io.wharf.tests.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The test application of filters (Servlet 6.1 chapter 6): filters mapped by URL pattern and
 * by servlet name, for several dispatcher types, each adding its name and the dispatcher type
 * to a trail the servlet prints, so that the order of the chain (section 6.2.4: URL-pattern
 * mappings first in the order declared, then servlet-name mappings) and the dispatches each
 * filter sees are compared. Servlets: {@code target} at {@code /f/*} and {@code *.x},
 * {@code other} at {@code /other}, {@code forwarder} at {@code /forward/*} (forwards to
 * {@code /f/forwarded}), {@code includer} at {@code /include/*} (includes {@code /f/included}).
 */
final class FilterApplication implements ServletContainerInitializer {

    static final String TRAIL = "trail";

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        PrintingServlet.Sight printTrail = (request, response) -> {
            List<String> lines = new ArrayList<>(trail(request));
            lines.add("servlet " + request.getHttpServletMapping().getServletName() + " " + request.getDispatcherType());
            return lines;
        };
        context.addServlet("target", new PrintingServlet(printTrail)).addMapping("/f/*", "*.x");
        context.addServlet("other", new PrintingServlet(printTrail)).addMapping("/other");
        context.addServlet("forwarder", new PrintingServlet((request, response) -> {
            request.getRequestDispatcher("/f/forwarded").forward(request, response);
            return List.of("after forward (not sent)");
        })).addMapping("/forward/*");
        context.addServlet("includer", new PrintingServlet((request, response) -> {
            request.getRequestDispatcher("/f/included").include(request, response);
            List<String> lines = new ArrayList<>(trail(request));
            lines.add("includer after include");
            return lines;
        })).addMapping("/include/*");

        EnumSet<DispatcherType> request = EnumSet.of(DispatcherType.REQUEST);
        // Declared in this order; the servlet-name filter comes first but runs after the URL-pattern ones.
        add(context, "byName").addMappingForServletNames(request, true, "target");
        add(context, "all").addMappingForUrlPatterns(request, true, "/*");
        add(context, "prefix").addMappingForUrlPatterns(request, true, "/f/*");
        add(context, "extension").addMappingForUrlPatterns(request, true, "*.x");
        add(context, "exact").addMappingForUrlPatterns(request, true, "/other");
        add(context, "first").addMappingForUrlPatterns(request, false, "/f/*");
        add(context, "forwardOnly").addMappingForUrlPatterns(EnumSet.of(DispatcherType.FORWARD), true, "/f/*");
        add(context, "includeOnly").addMappingForUrlPatterns(EnumSet.of(DispatcherType.INCLUDE), true, "/f/*");
        add(context, "everyDispatch").addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), true, "/*");
        add(context, "nameForward").addMappingForServletNames(EnumSet.of(DispatcherType.FORWARD, DispatcherType.REQUEST), true, "target");
        add(context, "twoPatterns").addMappingForUrlPatterns(request, true, "/f/a/*", "/f/*");
        add(context, "allServlets").addMappingForServletNames(request, true, "*");
    }

    private static FilterRegistration.Dynamic add(ServletContext context, String name) {
        return context.addFilter(name, new Filter() {
            @Override
            public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                    throws IOException, ServletException {
                trail(request).add(name + " " + request.getDispatcherType() + " " + ((HttpServletRequest) request).getRequestURI());
                chain.doFilter(request, response);
            }
        });
    }

    @SuppressWarnings("unchecked")
    static List<String> trail(ServletRequest request) {
        Object trail = request.getAttribute(TRAIL);
        if (trail == null) {
            trail = new ArrayList<String>();
            request.setAttribute(TRAIL, trail);
        }
        return (List<String>) trail;
    }
}
