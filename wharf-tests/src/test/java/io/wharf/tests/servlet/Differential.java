package io.wharf.tests.servlet;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import jakarta.servlet.ServletContainerInitializer;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The differential suite's engine: runs one test application on every container (Jetty,
 * Tomcat, and Wharf when it has a servlet container), sends each request to each of them
 * with {@link RawHttpClient}, reduces the responses to {@link Answer}s and compares them
 * field by field. A field in which the answers differ fails the test with a
 * {@link SideBySide} report, unless {@link KnownDifferences} (the table in
 * {@code docs/servlet.md}) lists it; a listed difference that no longer happens fails too
 * (but for a row that holds for every request of its test), so that the table says what is true. A known difference of {@code status} covers the other
 * fields in which the peers it names differ (a redirect or an error has little else in common
 * with a page), not a difference between the peers it does not name.
 *
 * <p>A test class registers one as a JUnit extension in a static field ({@link #of}): the
 * peers start once before its tests, serve them all, and stop after them. Requests are text: {@code \n} is sent as CRLF, {@code {host}}
 * becomes the peer's {@code 127.0.0.1:port}. The request line without its version names the
 * request in reports and in the table, so two requests of one test differ in their line.
 */
final class Differential implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

    private final String contextPath;
    private final ServletContainerInitializer application;
    private final List<ErrorPage> errorPages;
    private final RawHttpClient client = new RawHttpClient(Duration.ofSeconds(10));
    private final List<ServletPeer> peers = new ArrayList<>();
    private final Map<ServletPeer, URI> bases = new LinkedHashMap<>();
    private String test;
    private KnownDifferences known;
    private Path directory;

    private Differential(String contextPath, ServletContainerInitializer application, List<ErrorPage> errorPages) {
        this.contextPath = contextPath;
        this.application = application;
        this.errorPages = errorPages;
    }

    /**
     * @return the extension a test class registers in a static field: before its tests it starts
     *     {@code application} with {@code errorPages} in a context at {@code contextPath} on every peer (their files in a
     *     temporary directory of its own), after them it stops the peers and deletes the directory
     */
    static Differential of(String contextPath, ServletContainerInitializer application, ErrorPage... errorPages) {
        return new Differential(contextPath, application, List.of(errorPages));
    }

    /** @return a differential already started on {@code peers}, named {@code test} in reports, with its own table of known differences */
    static Differential start(String test, KnownDifferences known, List<ServletPeer> peers, String contextPath,
            ServletContainerInitializer application) throws Exception {
        Differential differential = new Differential(contextPath, application, List.of());
        differential.start(test, known, peers);
        return differential;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        directory = Files.createTempDirectory("wharf-servlet-differential");
        start(context.getRequiredTestClass().getSimpleName(), KnownDifferences.fromDocs(), peers(directory));
    }

    private void start(String test, KnownDifferences known, List<ServletPeer> peers) throws Exception {
        this.test = test;
        this.known = known;
        try {
            for (ServletPeer peer : peers) {
                this.peers.add(peer);
                bases.put(peer, peer.start(contextPath, application, errorPages));
            }
        } catch (Exception | Error failure) {
            close();
            throw failure;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        try {
            close();
        } finally {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    /** @return a new instance of each container, its files (if it writes any) under {@code directory} */
    static List<ServletPeer> peers(Path directory) throws Exception {
        return List.of(new WharfPeer(), new JettyPeer(), new TomcatPeer(Files.createDirectories(directory.resolve("tomcat"))));
    }

    /** Compares the answers to a GET of {@code target}, with a Host field and the further header lines given. */
    void get(String target, String... headerLines) {
        check(request("GET", target, headerLines), Compared.ALL);
    }

    /** @return the text of a request without body: the request line, Host, the header lines, Connection: close */
    static String request(String method, String target, String... headerLines) {
        StringBuilder request = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\nHost: {host}\n");
        for (String line : headerLines) {
            request.append(line).append('\n');
        }
        return request.append("Connection: close\n\n").toString();
    }

    /** Compares status, significant header fields and body of the answers to {@code request}. */
    void check(String request) {
        check(request, Compared.ALL);
    }

    /** Compares what {@code compared} says of the answers to {@code request}. */
    void check(String request, Compared compared) {
        String name = requestName(request);
        Map<String, Answer> answers = new LinkedHashMap<>();
        bases.forEach((peer, base) -> answers.put(peer.name(), answer(request, base, compared)));
        List<String> problems = new ArrayList<>();
        Optional<KnownDifferences.Entry> statusDifference = Optional.empty();
        for (String field : answers.values().iterator().next().fields().keySet()) {
            Map<String, String> values = new LinkedHashMap<>();
            answers.forEach((peer, answer) -> values.put(peer, answer.fields().get(field)));
            boolean differ = values.values().stream().distinct().count() > 1;
            Optional<KnownDifferences.Entry> entry = known.find(test, name, field)
                .filter(row -> row.peers().stream().anyMatch(values::containsKey));
            if (differ && entry.isEmpty() && statusDifference.isPresent() && othersAgree(statusDifference.get(), values)) {
                continue; // a known difference of status covers the rest of the odd peers' responses
            }
            if (field.equals("status") && differ && entry.isPresent() && othersAgree(entry.get(), values)) {
                statusDifference = entry;
            }
            if (differ && entry.isEmpty()) {
                problems.add("  " + field + " differs:\n" + SideBySide.of(field, values));
            } else if (differ && !othersAgree(entry.get(), values)) {
                problems.add("  " + field + " differs beyond the known difference of " + entry.get().peers() + ":\n"
                    + SideBySide.of(field, values));
            } else if (!differ && entry.isPresent() && !entry.get().request().equals(KnownDifferences.EVERY_REQUEST)) {
                problems.add("  " + field + " is the same on every peer now (" + values.values().iterator().next()
                    + "): take the row off the table in docs/servlet.md (" + entry.get().why() + ")");
            }
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(test + ", " + name + ": the containers answer differently, and "
                + KnownDifferences.HEADING.substring(3) + " in docs/servlet.md does not say why\n"
                + String.join("", problems));
        }
    }

    /**
     * @return whether the difference in {@code values} is the one {@code entry} describes: the
     *     peers it does not name all answered alike, and the body lines it names (if it names
     *     any) are the only lines that differ
     */
    private static boolean othersAgree(KnownDifferences.Entry entry, Map<String, String> values) {
        boolean othersAlike = values.entrySet().stream().filter(value -> !entry.peers().contains(value.getKey()))
            .map(Map.Entry::getValue).distinct().count() <= 1;
        return othersAlike && (entry.lines().isEmpty()
            || values.values().stream().map(entry::withoutLines).distinct().count() == 1);
    }

    private Answer answer(String request, URI base, Compared compared) {
        String bytes = request.replace("{host}", base.getAuthority()).replaceAll("(?<!\r)\n", "\r\n");
        try {
            RawResponse response = client.exchange(base.getPort(), bytes.getBytes(StandardCharsets.ISO_8859_1));
            return Answer.of(response, base.toString(), requestName(request).split(" ", 2)[1], compared);
        } catch (Exception failure) {
            return Answer.failed(failure, compared);
        }
    }

    /** @return the request line without its version: {@code GET /ctx/a?b} */
    static String requestName(String request) {
        String line = request.lines().findFirst().orElse("").strip();
        int version = line.lastIndexOf(" HTTP/");
        return version < 0 ? line : line.substring(0, version);
    }

    @Override
    public void close() throws Exception {
        Exception failure = null;
        for (ServletPeer peer : List.copyOf(peers)) {
            peers.remove(peer);
            try {
                peer.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
