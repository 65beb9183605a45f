package webapps;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;

/**
 * Leaves a thread-local holding one of the application's objects on the thread that starts and
 * stops the application, and never removes it: a common slip in real applications (and libraries)
 * that pins the class loader as long as that thread lives.
 */
public class CarelessListener implements ServletContextListener {

    private static final ThreadLocal<Object> LEFT_BEHIND = new ThreadLocal<>();

    @Override
    public void contextInitialized(ServletContextEvent event) {
        LEFT_BEHIND.set(new AppException("left on the starting thread"));
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        LEFT_BEHIND.set(new AppException("left on the stopping thread"));
    }
}
