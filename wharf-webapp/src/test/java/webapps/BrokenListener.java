package webapps;

import jakarta.servlet.ServletContextListener;

/** A listener whose class cannot initialize: its static initializer throws. */
public class BrokenListener implements ServletContextListener {

    static {
        fail();
    }

    private static void fail() {
        throw new IllegalStateException("this class never initializes");
    }
}
