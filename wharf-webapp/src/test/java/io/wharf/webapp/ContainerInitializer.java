package io.wharf.webapp;

import java.io.IOException;
import java.util.Set;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * An initializer on the container's class path (this module's test class path lists it in
 * META-INF/services): every application deployed in these tests finds it through its own loader
 * (Servlet 6.1 section 8.2.4) and gets {@code /container}.
 */
public final class ContainerInitializer implements ServletContainerInitializer {

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addServlet("container", new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.setContentType("text/plain");
                response.getWriter().print("from the container's initializer");
            }
        }).addMapping("/container");
    }
}
