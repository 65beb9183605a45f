package io.wharf.tests.servlet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a test application is deployed with besides its code — what a {@code web.xml} or the
 * container's own configuration would say and the Servlet API cannot: error pages, the login
 * configuration and its users, security constraints, whether uncovered methods are denied,
 * the files of the context's base resource with its welcome files, and the connector's TLS. Each {@link ServletPeer}
 * applies it its own container's way. Every part is optional; {@link #NONE} has none.
 *
 * @param errorPages the error pages
 * @param login how users log in and who they are, or null for no login configuration
 * @param constraints the security constraints
 * @param denyUncoveredHttpMethods {@code <deny-uncovered-http-methods/>} (section 13.8.4)
 * @param files the base resource's files, by path relative to it, with their text; a path ending
 *     in {@code /} is a directory; empty for no base resource (and no default servlet)
 * @param welcomeFiles the welcome files, when there are files
 * @param tls the connector's TLS (and HTTP/2), or null for plain HTTP/1.1
 * @param h2c whether the plain connector (no TLS) also speaks HTTP/2 in cleartext (RFC 9113
 *     §3.3: with prior knowledge, and RFC 7540 §3.2's {@code Upgrade: h2c} where the container has it)
 */
record Deployment(List<ErrorPage> errorPages, Login login, List<Constraint> constraints, boolean denyUncoveredHttpMethods,
        Map<String, String> files, List<String> welcomeFiles, Tls tls, boolean h2c) {

    static final Deployment NONE = new Deployment(List.of(), null, List.of(), false, Map.of(), List.of(), null, false);

    Deployment {
        errorPages = List.copyOf(errorPages);
        constraints = List.copyOf(constraints);
        files = new TreeMap<>(files);
        welcomeFiles = List.copyOf(welcomeFiles);
    }

    Deployment withErrorPages(ErrorPage... pages) {
        return new Deployment(Arrays.asList(pages), login, constraints, denyUncoveredHttpMethods, files, welcomeFiles, tls, h2c);
    }

    Deployment withLogin(Login users, Constraint... rules) {
        return new Deployment(errorPages, users, Arrays.asList(rules), denyUncoveredHttpMethods, files, welcomeFiles, tls, h2c);
    }

    Deployment denyingUncoveredHttpMethods() {
        return new Deployment(errorPages, login, constraints, true, files, welcomeFiles, tls, h2c);
    }

    Deployment withFiles(Map<String, String> texts, String... welcome) {
        return new Deployment(errorPages, login, constraints, denyUncoveredHttpMethods, texts, Arrays.asList(welcome), tls, h2c);
    }

    Deployment withTls(Tls settings) {
        return new Deployment(errorPages, login, constraints, denyUncoveredHttpMethods, files, welcomeFiles, settings, h2c);
    }

    /** @return this deployment with its plain connector speaking h2c besides HTTP/1.1 */
    Deployment withH2c() {
        if (tls != null) {
            throw new IllegalStateException("h2c is HTTP/2 without TLS");
        }
        return new Deployment(errorPages, login, constraints, denyUncoveredHttpMethods, files, welcomeFiles, tls, true);
    }

    /** @return whether a security handler is needed: a login configuration or constraints */
    boolean isSecured() {
        return login != null || !constraints.isEmpty();
    }

    /** Writes {@link #files} under {@code directory}, made if need be, and returns it. */
    Path writeFiles(Path directory) throws IOException {
        Files.createDirectories(directory);
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path path = directory.resolve(file.getKey());
            if (file.getKey().endsWith("/")) {
                Files.createDirectories(path);
            } else {
                Files.createDirectories(path.getParent());
                Files.writeString(path, file.getValue());
            }
        }
        return directory;
    }
}
