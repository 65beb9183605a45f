package io.wharf.tests.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.wharf.testing.Peers;

/**
 * The differential's requests over h2c with prior knowledge (RFC 9113 §3.3), sent by nghttp
 * (nghttp2's client), which Wharf did not write and which, unlike the JDK's client, speaks h2c
 * without an upgrade, shows a response's trailer fields and sends request trailers. Each raw
 * HTTP/1.1 request becomes nghttp's arguments: the method as {@code :method}, the header fields
 * but those HTTP/2 has no place for (as {@link Http2Client} leaves them out), the body with
 * {@code -d}, and, for a chunked body, its chunks joined and its trailer section as
 * {@code --trailer} fields (a trailing HEADERS frame). The response is read back from nghttp's
 * {@code -v} trace as a {@link RawResponse} of version {@code HTTP/2}: the fields it received
 * before the first HEADERS frame ended are the header section, those after are the trailer
 * section, and the body is the bytes nghttp wrote just before each DATA frame's line. nghttp
 * sends a body whole, so the parts of a paced request are not paced.
 *
 * <p>Called on the test's thread; each exchange is an nghttp run of its own (at most
 * {@link #TIMEOUT}), its body file in a temporary directory deleted after it.
 */
final class NghttpClient implements PeerClient {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * A field nghttp received: {@code [  0.005] recv (stream_id=13) name: value}, with
     * {@code , sensitive} after the stream's id for a field the server sent never indexed.
     */
    private static final Pattern FIELD = Pattern.compile("^\\[ *[0-9.]+\\] recv \\(stream_id=\\d+(?:, sensitive)?\\) (:?[^:]+): (.*)$",
        Pattern.MULTILINE);

    /** The line of a HEADERS frame nghttp received, after its fields. */
    private static final Pattern HEADERS = Pattern.compile("\\[ *[0-9.]+\\] recv HEADERS frame <");

    /** The line of a DATA frame nghttp received, after the frame's bytes, which it wrote just before. */
    private static final Pattern DATA =
        Pattern.compile("\\[ *[0-9.]+\\] recv DATA frame <length=(\\d+), flags=0x[0-9a-f]+, stream_id=\\d+>");

    @Override
    public RawResponse exchange(URI base, List<byte[]> parts, Duration pause) throws IOException {
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        parts.forEach(whole::writeBytes);
        String text = whole.toString(StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IllegalArgumentException("a request without the empty line that ends its header: " + text);
        }
        List<String> lines = Arrays.asList(text.substring(0, end).split("\r\n"));
        String[] requestLine = lines.getFirst().split(" ");
        List<String> arguments = new ArrayList<>(
            List.of("nghttp", "-v", "-t", TIMEOUT.toSeconds() + "s", "-H", ":method: " + requestLine[0]));
        boolean chunked = false;
        for (String line : lines.subList(1, lines.size())) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            chunked |= name.equals("transfer-encoding") && line.toLowerCase(Locale.ROOT).contains("chunked");
            if (!Http2Client.LEFT_OUT.contains(name)) {
                arguments.addAll(List.of("-H", name + ": " + line.substring(colon + 1).strip()));
            }
        }
        String body = text.substring(end + 4);
        if (chunked) {
            body = unchunked(body, arguments);
        }
        Path directory = Files.createTempDirectory("wharf-nghttp");
        try {
            if (!body.isEmpty()) {
                Path sent = Files.write(directory.resolve("body"), body.getBytes(StandardCharsets.ISO_8859_1));
                arguments.addAll(List.of("-d", sent.toString()));
            }
            arguments.add(base + requestLine[1]);
            return response(run(arguments));
        } finally {
            Files.deleteIfExists(directory.resolve("body"));
            Files.delete(directory);
        }
    }

    /** @return the data of the chunked {@code body}, its trailer fields added to {@code arguments} as {@code --trailer} */
    private static String unchunked(String body, List<String> arguments) {
        StringBuilder data = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = body.indexOf("\r\n", at);
            String sizeLine = body.substring(at, lineEnd);
            int size = Integer.parseInt(sizeLine.split(";", 2)[0].strip(), 16);
            at = lineEnd + 2;
            if (size == 0) {
                break;
            }
            data.append(body, at, at + size);
            at += size + 2;
        }
        for (String field : body.substring(at).split("\r\n")) {
            if (!field.isEmpty()) {
                int colon = field.indexOf(':');
                arguments.add("--trailer=" + field.substring(0, colon).strip().toLowerCase(Locale.ROOT) + ": "
                    + field.substring(colon + 1).strip());
            }
        }
        return data.toString();
    }

    /** Runs nghttp; @return what it wrote to its standard output, as ISO-8859-1 text (one char a byte) */
    private static String run(List<String> command) throws IOException {
        Peers.requireTool("nghttp");
        Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
        CompletableFuture<byte[]> errors = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("nghttp-stderr").start(() -> {
            try {
                errors.complete(process.getErrorStream().readAllBytes());
            } catch (IOException x) {
                errors.completeExceptionally(x);
            }
        });
        try {
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException("nghttp did not finish: " + command);
            }
            String trace = new String(out, StandardCharsets.ISO_8859_1);
            if (process.exitValue() != 0) {
                throw new IOException("nghttp exited with " + process.exitValue() + ": "
                    + new String(errors.join(), StandardCharsets.UTF_8) + trace + " for " + command);
            }
            return trace;
        } catch (InterruptedException interrupted) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for " + command);
        }
    }

    /** @return the response in nghttp's {@code -v} {@code trace} */
    private static RawResponse response(String trace) throws IOException {
        Matcher headersEnd = HEADERS.matcher(trace);
        if (!headersEnd.find()) {
            throw new IOException("no HEADERS frame received: " + trace);
        }
        int status = -1;
        HeaderFields headers = new HeaderFields();
        HeaderFields trailers = new HeaderFields();
        Matcher field = FIELD.matcher(trace);
        while (field.find()) {
            if (field.group(1).equals(":status")) {
                status = Integer.parseInt(field.group(2));
            } else {
                (field.start() < headersEnd.start() ? headers : trailers).add(field.group(1), field.group(2));
            }
        }
        if (status < 0) {
            throw new IOException("no :status received: " + trace);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        Matcher data = DATA.matcher(trace);
        while (data.find()) {
            int length = Integer.parseInt(data.group(1));
            body.writeBytes(trace.substring(data.start() - length, data.start()).getBytes(StandardCharsets.ISO_8859_1));
        }
        return new RawResponse("HTTP/2", status, "", headers, body.toByteArray(), trailers);
    }

    @Override
    public String toString() {
        return "nghttp over h2c with prior knowledge";
    }
}
