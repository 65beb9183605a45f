package io.wharf.tests.servlet;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * with a page), whatever rows the table has for those fields, not a difference between the
 * peers it does not name.
 *
 * <p>A test class registers one as a JUnit extension in a static field ({@link #of}): the
 * peers start once before its tests, serve them all, and stop after them. Requests are text: {@code \n} is sent as CRLF, {@code {host}}
 * becomes the peer's {@code 127.0.0.1:port}. The request line without its version names the
 * request in reports and in the table, so two requests of one test differ in their line.
 *
 * <p>The requests of one {@link #sequence} go to each peer in turn, each carrying the cookies the
 * peer set before (a login's session), and may quote a field of the peer's previous response
 * ({@code {previous:ETag}}); each step is compared as a request on its own.
 *
 * <p>A request is sent over the deployment's connector: plain HTTP/1.1, or over TLS when the
 * deployment has {@link Tls} (with the JVM's {@link Certificates}); {@link #over}
 * sends the same requests with another client, over HTTP/2 or with a client certificate.
 * {@code {pause}} in a request splits it into parts sent {@link #PAUSE} apart (a slow client).
 */
final class Differential implements BeforeAllCallback, AfterAllCallback, AutoCloseable {

    /** How long a client waits for a peer's response, or between two of its bytes. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** The pause between the parts of a request that {@code {pause}} separates. */
    static final Duration PAUSE = Duration.ofMillis(50);

    private final String contextPath;
    private final ServletContainerInitializer application;
    private Deployment deployment;
    private PeerClient client = new RawHttpClient(TIMEOUT);
    private final List<ServletPeer> peers;
    /** The clients {@link #http2Client()} made, closed with the peers. */
    private final List<Http2Client> clients;
    private final Map<ServletPeer, URI> bases;
    private String test;
    private KnownDifferences known;
    private Path directory;

    private Differential(String contextPath, ServletContainerInitializer application, Deployment deployment) {
        this.contextPath = contextPath;
        this.application = application;
        this.deployment = deployment;
        this.peers = new ArrayList<>();
        this.clients = new ArrayList<>();
        this.bases = new LinkedHashMap<>();
    }

    /** A view of {@code started}'s peers that sends its requests with {@code client}. */
    private Differential(Differential started, PeerClient client) {
        this.contextPath = started.contextPath;
        this.application = started.application;
        this.deployment = started.deployment;
        this.client = client;
        this.peers = started.peers;
        this.clients = started.clients;
        this.bases = started.bases;
        this.test = started.test;
        this.known = started.known;
        this.directory = started.directory;
    }

    /**
     * @return the same started peers, compared the same way, but each request sent with
     *     {@code other} (another protocol, another client certificate); not an extension: this
     *     one still stops the peers
     */
    Differential over(PeerClient other) {
        return new Differential(this, other);
    }

    /**
     * @return an h2 client for a deployment over TLS, trusting the peers' certificate, closed
     *     when the peers stop (for {@link #over})
     */
    Http2Client http2Client() throws Exception {
        Http2Client h2 = new Http2Client(certificates().client(null), TIMEOUT);
        clients.add(h2);
        return h2;
    }

    /** @return the certificates of a deployment over TLS, made when the peers started */
    Certificates certificates() {
        if (deployment.tls() == null || deployment.tls().certificates() == null) {
            throw new IllegalStateException("not started over TLS");
        }
        return deployment.tls().certificates();
    }

    /**
     * @return the extension a test class registers in a static field: before its tests it starts
     *     {@code application} with {@code errorPages} in a context at {@code contextPath} on every peer (their files in a
     *     temporary directory of its own), after them it stops the peers and deletes the directory
     */
    static Differential of(String contextPath, ServletContainerInitializer application, ErrorPage... errorPages) {
        return of(contextPath, application, Deployment.NONE.withErrorPages(errorPages));
    }

    /**
     * @return as {@link #of(String, ServletContainerInitializer, ErrorPage...)}, with what
     *     {@code deployment} says; its files are written once, in the temporary directory, and
     *     every peer serves that one copy
     */
    static Differential of(String contextPath, ServletContainerInitializer application, Deployment deployment) {
        return new Differential(contextPath, application, deployment);
    }

    /** @return a differential already started on {@code peers}, named {@code test} in reports, with its own table of known differences */
    static Differential start(String test, KnownDifferences known, List<ServletPeer> peers, String contextPath,
            ServletContainerInitializer application) throws Exception {
        Differential differential = new Differential(contextPath, application, Deployment.NONE);
        differential.start(test, known, peers, null);
        return differential;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        directory = Files.createTempDirectory("wharf-servlet-differential");
        Tls tls = deployment.tls();
        if (tls != null) {
            deployment = deployment.withTls(tls.in(Certificates.shared(tls.asksForClientCertificates())));
            client = new RawHttpClient(TIMEOUT, certificates().client(null));
        }
        Path resources = deployment.files().isEmpty() ? null : deployment.writeFiles(directory.resolve("resources"));
        start(context.getRequiredTestClass().getSimpleName(), KnownDifferences.fromDocs(), peers(directory), resources);
    }

    private void start(String test, KnownDifferences known, List<ServletPeer> peers, Path resources) throws Exception {
        this.test = test;
        this.known = known;
        try {
            for (ServletPeer peer : peers) {
                this.peers.add(peer);
                bases.put(peer, peer.start(contextPath, application, deployment, resources));
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

    /** Something done with each peer, outside the comparison: {@code base} is its {@code http://127.0.0.1:port}. */
    @FunctionalInterface
    interface PeerAction {
        void run(String peer, URI base) throws Exception;
    }

    /** Runs {@code action} for each peer in turn; fails with the first failure, naming the peer. */
    void forEachPeer(PeerAction action) {
        bases.forEach((peer, base) -> {
            try {
                action.run(peer.name(), base);
            } catch (Exception failure) {
                throw new AssertionError(peer.name() + ": " + failure, failure);
            }
        });
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
        Map<String, Answer> answers = new LinkedHashMap<>();
        bases.forEach((peer, base) -> answers.put(peer.name(), answer(exchange(request, base), request, base, compared)));
        compare(requestName(request), answers).ifPresent(problem -> {
            throw new AssertionError(problem);
        });
    }

    /**
     * Sends {@code requests} one after another to each peer, each with a {@code Cookie} field of
     * the cookies that peer set in its earlier responses (unless they were deleted), and
     * {@code {previous:Name}} in a request replaced by the value of the field {@code Name} of
     * the peer's previous response (empty when it had none); then compares the answers step by
     * step, as {@link #check} does, each step named by its request line.
     */
    void sequence(Compared compared, String... requests) {
        run(compared, Stream.of(requests).map(Differential::requestName).toList(), Stream.of(requests)
            .<Step>map(request -> earlier -> quoting(request, earlier.isEmpty() ? null : earlier.getLast())).toList());
    }

    /**
     * One request of {@link #steps}, made for one peer from that peer's earlier responses.
     */
    @FunctionalInterface
    interface Step {
        /**
         * @param earlier the peer's responses to the earlier steps, in order, a null where it gave none
         * @return the request's text, as {@link #check} takes it
         */
        String request(List<RawResponse> earlier);
    }

    /**
     * As {@link #sequence}, with requests that each peer's earlier responses shape (a DIGEST
     * response to that peer's nonce); a step is named by the request line it makes for the first peer.
     */
    void steps(Compared compared, Step... requests) {
        run(compared, new ArrayList<>(), List.of(requests));
    }

    /** Runs the steps {@code requests} on each peer and compares them, each named by {@code names}, or when it has none, by its first request line. */
    private void run(Compared compared, List<String> names, List<Step> requests) {
        List<Map<String, Answer>> steps = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            steps.add(new LinkedHashMap<>());
        }
        bases.forEach((peer, base) -> {
            Map<String, String> cookies = new LinkedHashMap<>();
            List<RawResponse> earlier = new ArrayList<>();
            for (int i = 0; i < requests.size(); i++) {
                String request = withCookies(requests.get(i).request(Collections.unmodifiableList(earlier)), cookies);
                if (names.size() == i) {
                    names.add(requestName(request));
                }
                Exchange exchange = exchange(request, base);
                steps.get(i).put(peer.name(), answer(exchange, request, base, compared));
                earlier.add(exchange.response());
                keepCookies(exchange.response(), cookies);
            }
        });
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            compare(names.get(i), steps.get(i)).ifPresent(problems::add);
        }
        if (!problems.isEmpty()) {
            throw new AssertionError(String.join("\n", problems));
        }
    }

    private static final Pattern PREVIOUS_FIELD = Pattern.compile("\\{previous:([A-Za-z-]+)}");

    /** @return {@code request} with each {@code {previous:Name}} replaced; a Location by its path and query, as a browser would follow it */
    static String quoting(String request, RawResponse previous) {
        return PREVIOUS_FIELD.matcher(request).replaceAll(field -> {
            String value = previous == null ? null : previous.headers().get(field.group(1));
            if (value != null && field.group(1).equalsIgnoreCase("Location")) {
                value = value.replaceFirst("^https?://[^/]*", "");
            }
            return Matcher.quoteReplacement(value == null ? "" : value);
        });
    }

    /** @return {@code request} with a Cookie field after its request line, when there are cookies */
    static String withCookies(String request, Map<String, String> cookies) {
        if (cookies.isEmpty()) {
            return request;
        }
        StringBuilder field = new StringBuilder("Cookie: ");
        cookies.forEach((name, value) -> field.append(field.length() > 8 ? "; " : "").append(name).append('=').append(value));
        int line = request.indexOf('\n');
        return request.substring(0, line + 1) + field + "\n" + request.substring(line + 1);
    }

    /** Keeps in {@code cookies} those {@code response} sets, and forgets those it deletes (an empty value, or Max-Age=0). */
    static void keepCookies(RawResponse response, Map<String, String> cookies) {
        if (response == null) {
            return;
        }
        for (String setCookie : response.headers().all("Set-Cookie")) {
            String pair = setCookie.split(";", 2)[0].strip();
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                continue;
            }
            String lower = setCookie.toLowerCase(Locale.ROOT);
            boolean deleted = lower.matches(".*;\\s*max-age=0\\s*(;.*)?") || pair.length() == equals + 1;
            if (deleted) {
                cookies.remove(pair.substring(0, equals));
            } else {
                cookies.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
    }

    /** @return what differs in {@code answers} to the request {@code name} and the table does not say, or nothing */
    private Optional<String> compare(String name, Map<String, Answer> answers) {
        List<String> problems = new ArrayList<>();
        Optional<KnownDifferences.Entry> statusDifference = Optional.empty();
        for (String field : answers.values().iterator().next().fields().keySet()) {
            Map<String, String> values = new LinkedHashMap<>();
            answers.forEach((peer, answer) -> values.put(peer, answer.fields().get(field)));
            boolean differ = values.values().stream().distinct().count() > 1;
            Optional<KnownDifferences.Entry> entry = known.find(test, name, field)
                .filter(row -> row.peers().stream().anyMatch(values::containsKey));
            if (differ && statusDifference.isPresent() && othersAgree(statusDifference.get(), values)) {
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
        if (problems.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(test + ", " + name + ": the containers answer differently, and "
            + KnownDifferences.HEADING.substring(3) + " in docs/servlet.md does not say why\n"
            + String.join("", problems));
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

    /** What one peer answered to one request: its response, or the failure that stood in for one. */
    private record Exchange(RawResponse response, Exception failure) {
    }

    private Exchange exchange(String request, URI base) {
        String bytes = request.replace("{host}", base.getAuthority()).replaceAll("(?<!\r)\n", "\r\n");
        try {
            List<byte[]> parts = Stream.of(bytes.split(Pattern.quote(PAUSE_MARK), -1))
                .map(part -> part.getBytes(StandardCharsets.ISO_8859_1)).toList();
            return new Exchange(client.exchange(base, parts, PAUSE), null);
        } catch (Exception failure) {
            return new Exchange(null, failure);
        }
    }

    /** In a request's text, where the client flushes what it wrote so far and waits {@link #PAUSE}. */
    static final String PAUSE_MARK = "{pause}";

    private static Answer answer(Exchange exchange, String request, URI base, Compared compared) {
        if (exchange.response() == null) {
            return Answer.failed(exchange.failure(), compared);
        }
        return Answer.of(exchange.response(), base.toString(), requestName(request).split(" ", 2)[1], compared);
    }

    /** @return the request line without its version: {@code GET /ctx/a?b} */
    static String requestName(String request) {
        String line = request.lines().findFirst().orElse("").strip();
        int version = line.lastIndexOf(" HTTP/");
        return version < 0 ? line : line.substring(0, version);
    }

    @Override
    public void close() throws Exception {
        clients.forEach(Http2Client::close);
        clients.clear();
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
