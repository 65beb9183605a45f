package io.wharf.tests.servlet;

import java.net.URI;
import java.nio.file.Path;

import jakarta.servlet.ServletContainerInitializer;

/**
 * One servlet container the differential suite runs its test applications on: Jetty, Tomcat
 * or Wharf. A test application is a {@link ServletContainerInitializer} that registers its
 * servlets, filters and listeners through the {@code ServletContext}, so that the same code
 * runs on every container. A peer runs one context, listens on 127.0.0.1 only, on a free port.
 *
 * <p>Called from the test's thread: {@link #start} once, {@link #close} once, in that order.
 */
interface ServletPeer extends AutoCloseable {

    /** @return the container's name as the reports and the table of known differences spell it: Jetty, Tomcat, Wharf */
    String name();

    /**
     * Starts the container with one context at {@code contextPath} ({@code ""} for the root)
     * whose only content is what {@code initializer} registers and what {@code deployment} says:
     * error pages, login and constraints, and when {@code baseResource} is not null, that directory
     * (holding {@link Deployment#files}) served by the container's default servlet mapped to
     * {@code /}, with the deployment's welcome files.
     *
     * @return {@code http://127.0.0.1:port}, without the context path
     */
    URI start(String contextPath, ServletContainerInitializer initializer, Deployment deployment, Path baseResource)
        throws Exception;

    /** Stops the container and frees its port and threads. */
    @Override
    void close() throws Exception;
}
