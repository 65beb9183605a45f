package io.wharf.webapp.internal.naming;

import java.util.Hashtable;

import javax.naming.Context;

/**
 * Makes the context that {@link io.wharf.webapp.internal.naming.java.javaURLContextFactory}
 * hands JNDI: the {@code java:} root of the calling thread's web application, or (for a
 * {@code java:} URL given as the object) what that URL names. Called on the looking-up thread.
 */
public final class JavaContexts {

    /** The value for {@code java.naming.factory.url.pkgs}: the package above the factory's. */
    public static final String URL_PACKAGE_PREFIX = "io.wharf.webapp.internal.naming";

    private JavaContexts() {
    }

    /**
     * @param object null for the root context, or a {@code java:} URL string to resolve
     * @param properties the JNDI environment
     * @return the context, or what the URL names
     */
    public static Object forCurrentThread(Object object, Hashtable<?, ?> properties) throws Exception {
        Context root = new ReadOnlyContext(ComponentEnvironments.ofCurrentThread(), "", true, properties);
        if (object instanceof String url) {
            return root.lookup(url);
        }
        return root;
    }
}
