package io.wharf.tests.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;

/**
 * The test application of servlet mapping (Servlet 6.1 chapter 12): a servlet for each kind
 * of pattern — exact ({@code /exact}, {@code /a/exact}), prefix ({@code /a/*},
 * {@code /a/b/*}), extension ({@code *.do}), the default servlet ({@code /}) and the context
 * root ({@code ""}) — each printing its name and the paths and mapping the request was given.
 */
final class MappingApplication implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        add(context, "exact", "/exact", "/a/exact");
        add(context, "prefix", "/a/*");
        add(context, "deeperPrefix", "/a/b/*");
        add(context, "extension", "*.do");
        add(context, "default", "/");
        add(context, "root", "");
        add(context, "twoPatterns", "/two/*", "*.two");
    }

    private static void add(ServletContext context, String name, String... patterns) {
        context.addServlet(name, new PrintingServlet((request, response) -> {
            List<String> lines = new ArrayList<>();
            lines.add("servlet=" + name);
            lines.addAll(PrintingServlet.paths(request));
            return lines;
        })).addMapping(patterns);
    }
}
