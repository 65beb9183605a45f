package io.wharf.jsp.internal;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;

import org.apache.jasper.servlet.JspServlet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jasper's {@link JspServlet} with the periodic event Tomcat's background thread gives it: with
 * {@code development} off, Jasper compiles a changed page again only in
 * {@link JspServlet#periodicEvent()}, every {@code checkInterval} seconds when that is above 0,
 * and unloads pages there too ({@code maxLoadedJsps}, {@code jspIdleTimeout}). Without it a
 * production context would serve its first compilation of every page until restarted, whatever
 * its settings said.
 *
 * <p>Threads: a daemon thread of this servlet's own runs the events while the servlet lives,
 * with the context's class loader as its context class loader (a page compiles against the web
 * application's classes); {@link #destroy()} stops it before Jasper's own destroy. No thread is
 * made when no setting asks for events.
 */
public final class PeriodicJspServlet extends JspServlet {

    private static final Logger LOG = LoggerFactory.getLogger(PeriodicJspServlet.class);
    /** Tomcat's background period, for unloading when no check interval is set. */
    private static final int DEFAULT_PERIOD_SECONDS = 10;

    private transient ScheduledExecutorService events;

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        boolean development = !"false".equalsIgnoreCase(parameter(config, "development", "true"));
        int checkInterval = number(config, "checkInterval");
        boolean recompiles = !development && checkInterval > 0;
        boolean unloads = number(config, "maxLoadedJsps") > 0 || number(config, "jspIdleTimeout") > 0;
        if (!recompiles && !unloads) {
            return;
        }
        int period = checkInterval > 0 ? checkInterval : DEFAULT_PERIOD_SECONDS;
        ClassLoader loader = config.getServletContext().getClassLoader();
        String name = "wharf-jsp-events" + config.getServletContext().getContextPath();
        events = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            thread.setContextClassLoader(loader);
            return thread;
        });
        events.scheduleWithFixedDelay(this::runPeriodicEvent, period, period, TimeUnit.SECONDS);
    }

    private void runPeriodicEvent() {
        try {
            periodicEvent();
        } catch (RuntimeException x) {
            LOG.warn("Jasper's periodic check of {} failed", getServletContext().getContextPath(), x);
        }
    }

    @Override
    public void destroy() {
        ScheduledExecutorService running = events;
        if (running != null) {
            running.shutdownNow();
            try {
                running.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        }
        super.destroy();
    }

    private static String parameter(ServletConfig config, String name, String otherwise) {
        String value = config.getInitParameter(name);
        return value == null ? otherwise : value.trim();
    }

    /** @return the init parameter as a number, 0 when absent or not a number (Jasper then uses its default and says so) */
    private static int number(ServletConfig config, String name) {
        try {
            return Integer.parseInt(parameter(config, name, "0"));
        } catch (NumberFormatException x) {
            return 0;
        }
    }
}
