package io.wharf.webapp.internal.naming;

import java.util.Hashtable;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

import javax.naming.Binding;
import javax.naming.CompositeName;
import javax.naming.Context;
import javax.naming.InitialContext;
import javax.naming.Name;
import javax.naming.NameClassPair;
import javax.naming.NameNotFoundException;
import javax.naming.NameParser;
import javax.naming.NamingEnumeration;
import javax.naming.NamingException;
import javax.naming.OperationNotSupportedException;

/**
 * A JNDI {@link Context} over a {@link ComponentEnvironment} at one path: the {@code java:}
 * root that the URL context factory gives ({@code lookup("java:comp/env/x")}), or a context
 * below it ({@code java:comp/env}, whose {@code lookup("x")} is relative). Read-only: binding,
 * renaming and creating subcontexts are refused. Made per lookup, used by one thread.
 */
final class ReadOnlyContext implements Context {

    private static final NameParser PARSER = CompositeName::new;

    private final ComponentEnvironment environment;
    private final String path;
    private final boolean urlRoot;
    private final Hashtable<Object, Object> properties;

    /**
     * @param environment the application's environment, or null on a thread of no application
     * @param path where this context is, under {@code java:} ("" for the root)
     * @param urlRoot whether names are {@code java:} URLs rather than relative to {@code path}
     * @param properties the JNDI environment it was made with
     */
    ReadOnlyContext(ComponentEnvironment environment, String path, boolean urlRoot, Hashtable<?, ?> properties) {
        this.environment = environment;
        this.path = path;
        this.urlRoot = urlRoot;
        this.properties = properties == null ? new Hashtable<>() : new Hashtable<>(properties);
    }

    /** @return the path under {@code java:} that {@code name} names from here */
    private String resolve(String name) throws NamingException {
        if (environment == null) {
            throw new NameNotFoundException(name + ": java:comp/env exists only on a web application's threads"
                + " (this thread's context class loader belongs to none)");
        }
        String relative = name;
        if (urlRoot) {
            if (!name.startsWith("java:")) {
                throw new NameNotFoundException(name + " is not a java: name");
            }
            relative = name.substring("java:".length());
        }
        while (relative.startsWith("/")) {
            relative = relative.substring(1);
        }
        while (relative.endsWith("/")) {
            relative = relative.substring(0, relative.length() - 1);
        }
        return path.isEmpty() ? relative : relative.isEmpty() ? path : path + "/" + relative;
    }

    @Override
    public Object lookup(String name) throws NamingException {
        String target = resolve(name);
        Optional<Object> value = environment.lookup(target);
        if (value.isEmpty()) {
            return new ReadOnlyContext(environment, target, false, properties);
        }
        if (value.get() instanceof ComponentEnvironment.Link link) {
            return new InitialContext(properties).lookup(link.name());
        }
        return value.get();
    }

    @Override
    public Object lookup(Name name) throws NamingException {
        return lookup(name.toString());
    }

    @Override
    public NamingEnumeration<NameClassPair> list(String name) throws NamingException {
        String target = resolve(name);
        environment.lookup(target);
        return enumerate(target, false);
    }

    @Override
    public NamingEnumeration<NameClassPair> list(Name name) throws NamingException {
        return list(name.toString());
    }

    @Override
    public NamingEnumeration<Binding> listBindings(String name) throws NamingException {
        String target = resolve(name);
        environment.lookup(target);
        return enumerate(target, true);
    }

    @Override
    public NamingEnumeration<Binding> listBindings(Name name) throws NamingException {
        return listBindings(name.toString());
    }

    @SuppressWarnings("unchecked")
    private <T extends NameClassPair> NamingEnumeration<T> enumerate(String target, boolean bindings) throws NamingException {
        Iterator<Map.Entry<String, Boolean>> children = environment.children(target).entrySet().iterator();
        return new NamingEnumeration<>() {
            @Override
            public T next() throws NamingException {
                if (!children.hasNext()) {
                    throw new NoSuchElementException();
                }
                Map.Entry<String, Boolean> child = children.next();
                String full = target.isEmpty() ? child.getKey() : target + "/" + child.getKey();
                Object value = child.getValue() ? new ReadOnlyContext(environment, full, false, properties) : environment.lookup(full).orElse(null);
                String className = value == null ? Context.class.getName() : value.getClass().getName();
                return (T) (bindings ? new Binding(child.getKey(), className, value) : new NameClassPair(child.getKey(), className));
            }

            @Override
            public boolean hasMore() {
                return children.hasNext();
            }

            @Override
            public void close() {
            }

            @Override
            public boolean hasMoreElements() {
                return children.hasNext();
            }

            @Override
            public T nextElement() {
                try {
                    return next();
                } catch (NamingException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    @Override
    public Object lookupLink(String name) throws NamingException {
        String target = resolve(name);
        Optional<Object> value = environment.lookup(target);
        return value.isEmpty() ? new ReadOnlyContext(environment, target, false, properties) : value.get();
    }

    @Override
    public Object lookupLink(Name name) throws NamingException {
        return lookupLink(name.toString());
    }

    @Override
    public NameParser getNameParser(String name) {
        return PARSER;
    }

    @Override
    public NameParser getNameParser(Name name) {
        return PARSER;
    }

    @Override
    public Name composeName(Name name, Name prefix) throws NamingException {
        return ((Name) prefix.clone()).addAll(name);
    }

    @Override
    public String composeName(String name, String prefix) {
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    @Override
    public Hashtable<?, ?> getEnvironment() {
        return new Hashtable<>(properties);
    }

    @Override
    public Object addToEnvironment(String name, Object value) {
        return properties.put(name, value);
    }

    @Override
    public Object removeFromEnvironment(String name) {
        return properties.remove(name);
    }

    @Override
    public void close() {
    }

    @Override
    public String getNameInNamespace() {
        return "java:" + path;
    }

    private static OperationNotSupportedException readOnly() {
        return new OperationNotSupportedException("java:comp/env is read-only: its names come from the web application's descriptor");
    }

    @Override
    public void bind(Name name, Object value) throws NamingException {
        throw readOnly();
    }

    @Override
    public void bind(String name, Object value) throws NamingException {
        throw readOnly();
    }

    @Override
    public void rebind(Name name, Object value) throws NamingException {
        throw readOnly();
    }

    @Override
    public void rebind(String name, Object value) throws NamingException {
        throw readOnly();
    }

    @Override
    public void unbind(Name name) throws NamingException {
        throw readOnly();
    }

    @Override
    public void unbind(String name) throws NamingException {
        throw readOnly();
    }

    @Override
    public void rename(Name oldName, Name newName) throws NamingException {
        throw readOnly();
    }

    @Override
    public void rename(String oldName, String newName) throws NamingException {
        throw readOnly();
    }

    @Override
    public void destroySubcontext(Name name) throws NamingException {
        throw readOnly();
    }

    @Override
    public void destroySubcontext(String name) throws NamingException {
        throw readOnly();
    }

    @Override
    public Context createSubcontext(Name name) throws NamingException {
        throw readOnly();
    }

    @Override
    public Context createSubcontext(String name) throws NamingException {
        throw readOnly();
    }

    @Override
    public String toString() {
        return "ReadOnlyContext[java:" + path + "]";
    }
}
