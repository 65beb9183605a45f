package io.wharf.jsp;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

/** A context listener a test tag library declares: counts the starts it heard of. */
public final class TldListener implements ServletContextListener {

    static final AtomicInteger STARTS = new AtomicInteger();

    @Override
    public void contextInitialized(ServletContextEvent event) {
        STARTS.incrementAndGet();
    }
}
