package io.wharf.webapp.scan;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.wharf.webapp.descriptor.DescriptorException;
import io.wharf.webapp.descriptor.DescriptorKind;
import io.wharf.webapp.descriptor.FilterDefinition;
import io.wharf.webapp.descriptor.FilterMapping;
import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.ServletMapping;
import io.wharf.webapp.descriptor.WebDescriptor;

/**
 * Turns the servlet annotations of scanned classes into descriptor entries (Servlet 6.1
 * section 8.1), so that {@link io.wharf.webapp.descriptor.DescriptorMerger#overlay} can put a
 * document over them: {@code @WebServlet} a servlet (named after its class unless it says) and
 * its mapping, {@code @MultipartConfig} on that class its multipart configuration,
 * {@code @WebFilter} a filter and its mapping, {@code @WebListener} a listener. Stateless.
 */
public final class AnnotationDescriptors {

    private AnnotationDescriptors() {
    }

    /** @return the entries of one scan, as a descriptor of kind {@link DescriptorKind#ANNOTATIONS} named after its source */
    public static WebDescriptor of(ScanResult result) {
        WebDescriptor.Builder builder = WebDescriptor.builder(result.source(), DescriptorKind.ANNOTATIONS);
        Map<String, String> servletClasses = new HashMap<>();
        Map<String, String> filterClasses = new HashMap<>();
        for (ScannedClass scanned : result.classes()) {
            scanned.webServlet().ifPresent(servlet -> {
                String name = servlet.name().isEmpty() ? scanned.name() : servlet.name();
                claim(servletClasses, name, scanned.name(), "@WebServlet", result);
                builder.servlets.add(new ServletDefinition(name, Optional.of(scanned.name()), Optional.empty(), servlet.initParams(),
                    servlet.loadOnStartup(), servlet.asyncSupported(), Optional.empty(), scanned.multipartConfig(), Optional.empty(),
                    java.util.List.of()));
                if (!servlet.urlPatterns().isEmpty()) {
                    builder.servletMappings.add(new ServletMapping(name, servlet.urlPatterns()));
                }
            });
            scanned.webFilter().ifPresent(filter -> {
                String name = filter.filterName().isEmpty() ? scanned.name() : filter.filterName();
                claim(filterClasses, name, scanned.name(), "@WebFilter", result);
                builder.filters.add(new FilterDefinition(name, Optional.of(scanned.name()), filter.initParams(), filter.asyncSupported()));
                if (!filter.urlPatterns().isEmpty() || !filter.servletNames().isEmpty()) {
                    builder.filterMappings.add(new FilterMapping(name, filter.urlPatterns(), filter.servletNames(), filter.dispatcherTypes()));
                }
            });
            if (scanned.webListener()) {
                builder.listeners.add(scanned.name());
            }
        }
        return builder.build();
    }

    private static void claim(Map<String, String> classesByName, String name, String className, String annotation, ScanResult result) {
        String other = classesByName.putIfAbsent(name, className);
        if (other != null) {
            throw new DescriptorException(result.source() + ": " + annotation + " name '" + name + "' is used by both " + other
                + " and " + className);
        }
    }
}
