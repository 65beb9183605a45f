package io.wharf.servlet.internal;

import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import jakarta.servlet.ServletContext;

/**
 * What a servlet's and a filter's registration share (Servlet 6.1 section 4.4.3): a name, a class
 * name or an instance, init parameters and whether it supports asynchronous processing. Changes
 * are allowed while the context is being set up and refused with {@link IllegalStateException}
 * after ({@link ServletApiContext#checkConfigurable}).
 *
 * <p><b>Threads.</b> Configured on the deploying thread; read on request threads once the
 * context's start has published it.
 */
abstract class Registration {

    final ServletApiContext context;
    private final String name;
    private final String className;
    private final Map<String, String> initParameters = new LinkedHashMap<>();
    private volatile boolean asyncSupported;

    Registration(ServletApiContext context, String name, String className) {
        this.context = context;
        this.name = Objects.requireNonNull(name, "name");
        this.className = className;
    }

    public String getName() {
        return name;
    }

    public String getClassName() {
        return className;
    }

    public boolean setInitParameter(String name, String value) {
        if (name == null || value == null) {
            throw new IllegalArgumentException("init parameter name and value must not be null: " + name + "=" + value);
        }
        context.checkConfigurable();
        return initParameters.putIfAbsent(name, value) == null;
    }

    public String getInitParameter(String name) {
        return initParameters.get(name);
    }

    /** @return the names among {@code parameters} already set (and left as they were) */
    public Set<String> setInitParameters(Map<String, String> parameters) {
        context.checkConfigurable();
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            if (entry.getKey() == null || entry.getValue() == null) {
                throw new IllegalArgumentException("init parameter name and value must not be null: " + entry);
            }
        }
        Set<String> conflicts = new java.util.LinkedHashSet<>();
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            if (initParameters.containsKey(entry.getKey())) {
                conflicts.add(entry.getKey());
            }
        }
        if (conflicts.isEmpty()) {
            initParameters.putAll(parameters);
        }
        return conflicts;
    }

    public Map<String, String> getInitParameters() {
        return Collections.unmodifiableMap(initParameters);
    }

    /** For {@code ServletConfig} and {@code FilterConfig}. */
    public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(initParameters.keySet());
    }

    /** For {@code ServletConfig} and {@code FilterConfig}. */
    public ServletContext getServletContext() {
        return context;
    }

    public void setAsyncSupported(boolean asyncSupported) {
        context.checkConfigurable();
        this.asyncSupported = asyncSupported;
    }

    public boolean isAsyncSupported() {
        return asyncSupported;
    }

    /** @return the class to instantiate: the given one, or the named one loaded with the context's class loader */
    Class<?> loadClass() throws ClassNotFoundException {
        return Class.forName(className, false, context.getClassLoader());
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + (className == null ? "" : "," + className) + "]";
    }
}
