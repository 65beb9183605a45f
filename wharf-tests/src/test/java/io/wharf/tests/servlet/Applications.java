package io.wharf.tests.servlet;

import java.util.List;
import java.util.Set;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

/**
 * Several test applications in one context: each one's {@code onStartup} in turn, so that a
 * suite that runs the same requests over another protocol starts the peers once. The
 * applications must not map the same paths.
 */
final class Applications implements ServletContainerInitializer {

    private final List<ServletContainerInitializer> applications;

    private Applications(List<ServletContainerInitializer> applications) {
        this.applications = applications;
    }

    static Applications of(ServletContainerInitializer... applications) {
        return new Applications(List.of(applications));
    }

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) throws ServletException {
        for (ServletContainerInitializer application : applications) {
            application.onStartup(classes, context);
        }
    }
}
