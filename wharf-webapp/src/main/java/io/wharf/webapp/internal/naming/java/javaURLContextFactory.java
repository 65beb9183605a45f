package io.wharf.webapp.internal.naming.java;

import java.util.Hashtable;

import javax.naming.Context;
import javax.naming.Name;
import javax.naming.spi.ObjectFactory;

import io.wharf.webapp.internal.naming.JavaContexts;

/**
 * The factory JNDI asks for a context of {@code java:} URLs, on a web application's thread: its
 * name is JNDI's convention, not a choice. A web application's class path lists this package's
 * parent in {@code java.naming.factory.url.pkgs} (a generated {@code jndi.properties}), so
 * {@code new InitialContext().lookup("java:comp/env/x")} on its threads comes here. Made by
 * JNDI reflectively, called on the looking-up thread.
 */
public final class javaURLContextFactory implements ObjectFactory {

    /** JNDI makes it. */
    public javaURLContextFactory() {
    }

    @Override
    public Object getObjectInstance(Object object, Name name, Context nameContext, Hashtable<?, ?> environment) throws Exception {
        return JavaContexts.forCurrentThread(object, environment);
    }
}
