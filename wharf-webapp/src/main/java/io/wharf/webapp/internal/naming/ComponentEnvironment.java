package io.wharf.webapp.internal.naming;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import javax.naming.NameNotFoundException;
import javax.naming.NamingException;

import io.wharf.webapp.DeploymentException;
import io.wharf.webapp.descriptor.EnvEntry;
import io.wharf.webapp.descriptor.ResourceRef;

/**
 * The {@code java:comp/env} of one web application: each name below {@code comp/env/} bound to
 * an env-entry's value (a String, a boxed primitive), a resource the server was given, a link
 * (a {@code <lookup-name>}), or to nothing yet (a resource-ref without a resource, which fails
 * its lookup with a message saying so). Immutable; its values are the container's types only,
 * so it never holds on to the application's class loader. Read by any thread of the application.
 */
public final class ComponentEnvironment {

    /** The root under {@code java:} of an application's environment. */
    public static final String ENV = "comp/env";

    /** A binding a lookup follows: the JNDI name of a {@code <lookup-name>}. */
    record Link(String name) {
    }

    /** A resource-ref the server has no resource for. */
    record Missing(String name, String type) {
    }

    private final TreeMap<String, Object> bindings;

    private ComponentEnvironment(TreeMap<String, Object> bindings) {
        this.bindings = bindings;
    }

    /**
     * @param entries the descriptor's env-entries; an entry without a value or lookup name is left unbound (a lookup of it fails), as when no deployer supplies one
     * @param references the descriptor's resource-refs
     * @param resources the server's resources by name
     * @throws DeploymentException for a value that does not convert to its type, or a type it does not support
     */
    public static ComponentEnvironment of(List<EnvEntry> entries, List<ResourceRef> references, Map<String, Object> resources) {
        TreeMap<String, Object> bindings = new TreeMap<>();
        for (EnvEntry entry : entries) {
            if (entry.lookupName().isPresent()) {
                bindings.put(ENV + "/" + entry.name(), new Link(entry.lookupName().get()));
            } else if (entry.value().isPresent()) {
                bindings.put(ENV + "/" + entry.name(), convert(entry.name(), entry.type().orElse("java.lang.String"), entry.value().get()));
            }
        }
        for (ResourceRef reference : references) {
            Object resource = reference.lookupName().<Object>map(Link::new).orElse(resources.get(reference.name()));
            bindings.put(ENV + "/" + reference.name(), resource != null ? resource
                : new Missing(reference.name(), reference.type().orElse("a resource")));
        }
        return new ComponentEnvironment(bindings);
    }

    private static Object convert(String name, String type, String value) {
        try {
            return switch (type) {
                case "java.lang.String" -> value;
                case "java.lang.Integer" -> Integer.valueOf(value.strip());
                case "java.lang.Long" -> Long.valueOf(value.strip());
                case "java.lang.Short" -> Short.valueOf(value.strip());
                case "java.lang.Byte" -> Byte.valueOf(value.strip());
                case "java.lang.Double" -> Double.valueOf(value.strip());
                case "java.lang.Float" -> Float.valueOf(value.strip());
                case "java.lang.Boolean" -> Boolean.valueOf(value.strip());
                case "java.lang.Character" -> {
                    if (value.length() != 1) {
                        throw new IllegalArgumentException("a Character value is one character");
                    }
                    yield value.charAt(0);
                }
                default -> throw new DeploymentException("<env-entry> " + name + ": type " + type
                    + " is not supported (String, Integer, Long, Short, Byte, Double, Float, Boolean, Character)");
            };
        } catch (IllegalArgumentException e) {
            throw new DeploymentException("<env-entry> " + name + ": '" + value + "' is not a " + type + " (" + e.getMessage() + ")", e);
        }
    }

    /**
     * @param path a name under {@code java:}, without it: {@code comp/env/jdbc/orders}
     * @return what is bound there; empty when nothing is bound but names continue below it (a context)
     * @throws NameNotFoundException when nothing is bound there or below
     */
    Optional<Object> lookup(String path) throws NamingException {
        Object value = bindings.get(path);
        if (value instanceof Missing missing) {
            throw new NameNotFoundException("java:" + path + " is declared by a <resource-ref> (" + missing.type()
                + ") but the server was given no resource '" + missing.name() + "' (WebAppSettings.withResource)");
        }
        if (value != null) {
            return Optional.of(value);
        }
        if (path.isEmpty() || !children(path).isEmpty() || ENV.startsWith(path) && (ENV + "/").startsWith(path + "/")) {
            return Optional.empty();
        }
        throw new NameNotFoundException("java:" + path + " is not bound in this web application's environment");
    }

    /** @return the names directly below {@code path}, and whether each is a context (has names below it) */
    Map<String, Boolean> children(String path) {
        String prefix = path.isEmpty() ? "" : path + "/";
        Map<String, Boolean> children = new TreeMap<>();
        for (String name : bindings.tailMap(prefix).keySet()) {
            if (!name.startsWith(prefix)) {
                break;
            }
            String rest = name.substring(prefix.length());
            int slash = rest.indexOf('/');
            children.merge(slash < 0 ? rest : rest.substring(0, slash), slash >= 0, Boolean::logicalOr);
        }
        return children;
    }

    @Override
    public String toString() {
        return "ComponentEnvironment" + bindings.keySet();
    }
}
