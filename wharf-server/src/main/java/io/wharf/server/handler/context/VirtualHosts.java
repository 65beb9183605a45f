package io.wharf.server.handler.context;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.wharf.server.Connector;
import io.wharf.server.Request;

/**
 * The virtual-host rules of a {@link ContextHandler}, read from declarations: {@code example.com}
 * (an exact host name), {@code *.example.com} (any one label before {@code .example.com}, not
 * {@code example.com} itself) and {@code @name} (requests that came through the connector
 * named {@code name}).
 *
 * <p>A request matches when its host matches one of the host rules (or there are none) and
 * its connector is one of the named ones (or none are named); no rules at all match every
 * request. Hosts compare case-insensitively, without a trailing dot.
 *
 * <p>Immutable; called on the handling thread.
 *
 * @param declarations the rules as given, for display
 * @param exactHosts lower-case exact names
 * @param wildcardSuffixes lower-case suffixes of wildcards, starting with {@code .}
 * @param connectorNames the connector names
 */
record VirtualHosts(List<String> declarations, List<String> exactHosts, List<String> wildcardSuffixes,
                    List<String> connectorNames) {

    static final VirtualHosts ANY = new VirtualHosts(List.of(), List.of(), List.of(), List.of());

    /**
     * @throws IllegalArgumentException naming the declaration when one is empty or malformed
     */
    static VirtualHosts of(List<String> declarations) {
        List<String> exact = new ArrayList<>();
        List<String> wildcards = new ArrayList<>();
        List<String> connectors = new ArrayList<>();
        for (String declaration : declarations) {
            String rule = declaration == null ? "" : declaration.trim();
            if (rule.startsWith("@")) {
                if (rule.length() == 1) {
                    throw new IllegalArgumentException("virtual host '" + declaration + "' names no connector");
                }
                connectors.add(rule.substring(1));
            } else if (rule.startsWith("*.")) {
                String suffix = normalize(rule.substring(1));
                if (suffix.length() < 2 || suffix.indexOf('*') >= 0) {
                    throw new IllegalArgumentException("virtual host wildcard '" + declaration + "' is malformed");
                }
                wildcards.add(suffix);
            } else {
                String host = normalize(rule);
                if (host.isEmpty() || host.indexOf('*') >= 0 || host.indexOf('@') >= 0) {
                    throw new IllegalArgumentException("virtual host '" + declaration
                            + "' is not a host name, a *.domain wildcard or an @connector");
                }
                exact.add(host);
            }
        }
        return new VirtualHosts(List.copyOf(declarations), List.copyOf(exact), List.copyOf(wildcards), List.copyOf(connectors));
    }

    /** @return whether there are no rules */
    boolean isEmpty() {
        return declarations.isEmpty();
    }

    /** @return whether {@code request} passes the rules */
    boolean matches(Request request) {
        if (isEmpty()) {
            return true;
        }
        if (!connectorNames.isEmpty()) {
            Connector connector = request.getConnectionMetaData().getConnector();
            if (connector == null || !connectorNames.contains(connector.getName())) {
                return false;
            }
        }
        if (exactHosts.isEmpty() && wildcardSuffixes.isEmpty()) {
            return true;
        }
        String host = request.getHttpURI().getHost();
        if (host == null) {
            return false;
        }
        host = normalize(host);
        if (exactHosts.contains(host)) {
            return true;
        }
        for (String suffix : wildcardSuffixes) {
            // One label before the suffix: "a.example.com" but neither "example.com" nor "a.b.example.com".
            int labelLength = host.length() - suffix.length();
            if (labelLength > 0 && host.endsWith(suffix) && host.lastIndexOf('.', labelLength - 1) < 0) {
                return true;
            }
        }
        return false;
    }

    private static String normalize(String host) {
        String lower = host.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }
}
