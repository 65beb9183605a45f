package io.wharf.tests;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helper: headless Chromium (Debian's package, installed by {@code ./wharf test}) driven
 * through its DevTools protocol with the JDK's WebSocket client. {@link #open} loads a page in
 * a new tab; {@link Page#evaluate} runs JavaScript in it and returns the result as a string.
 * Certificate errors are ignored (the tests' servers use self-signed certificates), or one
 * certificate is trusted ({@link #trusting}). Started with its own profile directory;
 * {@link #close()} kills it.
 */
final class Chromium implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://[^\\s]+)");
    private static final Pattern DEBUGGER_URL = Pattern.compile("\"webSocketDebuggerUrl\"\\s*:\\s*\"([^\"]+)\"");

    private final Process process;
    private final String devTools;
    private final HttpClient http = HttpClient.newHttpClient();

    private Chromium(Process process, String devTools) {
        this.process = process;
        this.devTools = devTools;
    }

    /** Starts Chromium with a profile in {@code profile}, listening for DevTools on a free loopback port. */
    static Chromium start(Path profile) throws IOException, InterruptedException {
        return start(profile, "--ignore-certificate-errors");
    }

    /**
     * Starts Chromium trusting the certificate {@code pem} holds, as if a real CA had signed it:
     * unlike {@code --ignore-certificate-errors}, a connection to it has no certificate error,
     * which some features need (Chromium ignores 103 Early Hints on connections with one).
     * {@code flags} are more command-line switches (e.g. {@code --disable-http2}).
     */
    static Chromium trusting(Path profile, Path pem, String... flags) throws Exception {
        java.security.cert.Certificate certificate;
        try (var in = java.nio.file.Files.newInputStream(pem)) {
            certificate = java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        byte[] spki = java.security.MessageDigest.getInstance("SHA-256").digest(certificate.getPublicKey().getEncoded());
        List<String> switches = new ArrayList<>(List.of(flags));
        switches.add("--ignore-certificate-errors-spki-list=" + java.util.Base64.getEncoder().encodeToString(spki));
        return start(profile, switches.toArray(String[]::new));
    }

    private static Chromium start(Path profile, String... flags) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("chromium", "--headless=new", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--no-default-browser-check"));
        command.addAll(List.of(flags));
        command.addAll(List.of("--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "about:blank"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        BufferedReader errors = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String line;
        while ((line = errors.readLine()) != null) {
            Matcher matcher = LISTENING.matcher(line);
            if (matcher.find()) {
                URI browser = URI.create(matcher.group(1));
                Thread drain = new Thread(() -> errors.lines().forEach(ignored -> { }), "chromium-stderr");
                drain.setDaemon(true);
                drain.start();
                return new Chromium(process, "http://" + browser.getHost() + ":" + browser.getPort());
            }
            if (System.nanoTime() > deadline) {
                break;
            }
        }
        process.destroyForcibly();
        throw new AssertionError("Chromium did not open its DevTools port; last line: " + line);
    }

    /** @return a new tab on its way to {@code url} (still about:blank at first: see {@link Page#awaitLoaded}) */
    Page open(String url) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(devTools + "/json/new?" + URLEncoder.encode(url, StandardCharsets.UTF_8)))
                .PUT(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build();
        String target = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        Matcher matcher = DEBUGGER_URL.matcher(target);
        if (!matcher.find()) {
            throw new AssertionError("no DevTools socket for the new tab: " + target);
        }
        Page page = new Page();
        page.socket = http.newWebSocketBuilder().buildAsync(URI.create(matcher.group(1)), page).get(10, TimeUnit.SECONDS);
        return page;
    }

    @Override
    public void close() throws InterruptedException {
        // The browser's helpers (the storage service among them) outlive it for a moment and
        // still write into the profile; a test's @TempDir cleanup that runs meanwhile fails
        // with DirectoryNotEmptyException. Take the tree while the browser still holds it,
        // and wait for every member.
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        for (ProcessHandle member : tree) {
            awaitExit(member);
        }
        // Not close(): it waits for every WebSocket to see its end, which the JDK's socket can
        // miss (the peer's FIN left in CLOSE_WAIT); the DevTools sockets are done, abort them.
        http.shutdownNow();
    }

    private static void awaitExit(ProcessHandle member) throws InterruptedException {
        try {
            member.onExit().get(10, TimeUnit.SECONDS);
        } catch (TimeoutException stuck) {
            member.destroyForcibly();
            try {
                member.onExit().get(10, TimeUnit.SECONDS);
            } catch (TimeoutException | ExecutionException again) {
                throw new AssertionError("Chromium's process " + member.pid() + " outlived SIGKILL by 10 s", again);
            }
        } catch (ExecutionException impossible) {
            throw new AssertionError(impossible);
        }
    }

    /** One tab and its DevTools session. */
    static final class Page implements WebSocket.Listener {
        private final AtomicInteger ids = new AtomicInteger();
        private final Map<Integer, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
        private final StringBuilder partial = new StringBuilder();
        private WebSocket socket;

        /**
         * @return the value of {@code expression} evaluated in the page (awaiting a promise),
         *     made a string by {@code String(...)} in the page
         */
        String evaluate(String expression) throws Exception {
            int id = ids.incrementAndGet();
            CompletableFuture<String> answer = new CompletableFuture<>();
            pending.put(id, answer);
            String wrapped = "(async () => String(await (" + expression + ")))()";
            socket.sendText("{\"id\":" + id + ",\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":" + quote(wrapped)
                    + ",\"returnByValue\":true,\"awaitPromise\":true}}", true).get(10, TimeUnit.SECONDS);
            String reply = answer.get(10, TimeUnit.SECONDS);
            if (reply.contains("\"exceptionDetails\"")) {
                throw new AssertionError("the page threw: " + reply);
            }
            return stringValue(reply);
        }

        /** Evaluates {@code expression} until its value passes {@code test}, for up to {@code timeout}. */
        String await(String expression, Predicate<String> test, Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            String value = evaluate(expression);
            while (!test.test(value)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("after " + timeout + ", " + expression + " is still: " + value);
                }
                Thread.sleep(50);
                value = evaluate(expression);
            }
            return value;
        }

        /**
         * Waits until the tab shows {@code url} (as the browser spells it) completely loaded. A new
         * tab first holds an empty about:blank document that is already {@code complete}, so the
         * ready state alone may be the blank page's, before the one asked for arrived.
         *
         * @return the page's URL
         */
        String awaitLoaded(String url, Duration timeout) throws Exception {
            String expected = "complete " + evaluate("new URL(" + quote(url) + ").href");
            await("document.readyState + ' ' + location.href", expected::equals, timeout);
            return expected.substring("complete ".length());
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String message = partial.toString();
                partial.setLength(0);
                Matcher id = Pattern.compile("^\\{\"id\":(\\d+),").matcher(message);
                if (id.find()) {
                    CompletableFuture<String> answer = pending.remove(Integer.parseInt(id.group(1)));
                    if (answer != null) {
                        answer.complete(message);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }

        /** @return the {@code "value"} string of a Runtime.evaluate reply */
        private static String stringValue(String reply) {
            int at = reply.indexOf("\"value\":\"");
            if (at < 0) {
                throw new AssertionError("no string value in " + reply);
            }
            StringBuilder value = new StringBuilder();
            for (int i = at + "\"value\":\"".length(); i < reply.length(); i++) {
                char c = reply.charAt(i);
                if (c == '"') {
                    return value.toString();
                }
                if (c == '\\') {
                    char escaped = reply.charAt(++i);
                    switch (escaped) {
                        case 'n' -> value.append('\n');
                        case 't' -> value.append('\t');
                        case 'r' -> value.append('\r');
                        case 'b' -> value.append('\b');
                        case 'f' -> value.append('\f');
                        case 'u' -> {
                            value.append((char) Integer.parseInt(reply.substring(i + 1, i + 5), 16));
                            i += 4;
                        }
                        default -> value.append(escaped);
                    }
                } else {
                    value.append(c);
                }
            }
            throw new AssertionError("unterminated value in " + reply);
        }

        private static String quote(String text) {
            StringBuilder json = new StringBuilder("\"");
            for (char c : text.toCharArray()) {
                switch (c) {
                    case '"' -> json.append("\\\"");
                    case '\\' -> json.append("\\\\");
                    case '\n' -> json.append("\\n");
                    default -> {
                        if (c < 0x20) {
                            json.append(String.format("\\u%04x", (int) c));
                        } else {
                            json.append(c);
                        }
                    }
                }
            }
            return json.append('"').toString();
        }
    }
}
