package io.wharf.tests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Test helper: a Chromium net-log ({@code --log-net-log}), written by a browser the test starts
 * with {@link #flags()} and read back when an assertion about that browser fails, so that the
 * failure message shows what Chromium's network stack did with one origin's requests. Chromium
 * writes one event per line and, killed, leaves the file unterminated; {@link #events} reads
 * it line by line and needs no JSON parser.
 *
 * <p>Used on the test's thread only, after the browser has been closed.
 */
final class NetLog {

    /** The events shown: requests, HTTP/2 frames that matter to a response, and early hints. */
    private static final Set<String> SHOWN = Set.of("URL_REQUEST_START_JOB", "HTTP_TRANSACTION_SEND_REQUEST",
            "HTTP_TRANSACTION_READ_EARLY_HINTS_RESPONSE_HEADERS", "HTTP_TRANSACTION_READ_RESPONSE_HEADERS",
            "HTTP2_SESSION_SEND_HEADERS", "HTTP2_SESSION_RECV_HEADERS", "HTTP2_SESSION_SEND_RST_STREAM",
            "HTTP2_SESSION_RECV_RST_STREAM", "HTTP2_SESSION_RECV_GOAWAY", "HTTP2_SESSION_CLOSE");
    private static final String[] PHASES = {"", "+", "-"};
    private static final Pattern TYPE = Pattern.compile("\"type\":(\\d+)},?$");
    private static final Pattern SOURCE = Pattern.compile("\"source\":\\{\"id\":(\\d+)");
    private static final Pattern TIME = Pattern.compile("\"time\":\"(\\d+)\"");
    private static final Pattern PHASE = Pattern.compile("\"phase\":(\\d)");
    private static final Pattern PARAMS = Pattern.compile("\"params\":(\\{.*}),\"phase\"");
    private static final Pattern URL = Pattern.compile("\"url\":\"([^\"]*)\"");
    private static final Pattern EVENT_TYPE = Pattern.compile("\"([A-Z0-9_]+)\":(\\d+)");
    private static final int PARAMS_SHOWN = 240;

    private final Path file;

    /** A net-log to be written to {@code file}. */
    NetLog(Path file) {
        this.file = file;
    }

    /** @return the switches that make Chromium write this net-log, with headers and bytes */
    String[] flags() {
        return new String[] {"--log-net-log=" + file, "--net-log-capture-mode=Everything"};
    }

    Path file() {
        return file;
    }

    /**
     * @return the shown events (one a line: milliseconds from the first, {@code +} begin or
     *     {@code -} end, the type, its URL if any, its parameters cut to 240 characters) of
     *     the requests whose URL starts with {@code origin} and of the HTTP/2 sessions to it,
     *     in the order logged
     */
    String events(String origin) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Map<Integer, String> types = typeNames(lines);
        // First the sources that concern the origin: its requests and its HTTP/2 sessions.
        String host = origin.replaceFirst("^[a-z]+://", "");
        Set<String> sources = new HashSet<>();
        for (String line : lines) {
            if ((line.contains("\"url\":\"" + origin) || line.contains("\"host\":\"" + host + "\"")) && line.contains("\"source\"")) {
                sources.add(group(SOURCE, line));
            }
        }
        StringBuilder shown = new StringBuilder();
        long first = -1;
        for (String line : lines) {
            String type = types.get(Integer.valueOf(orDefault(group(TYPE, line), "-1")));
            if (type == null || !SHOWN.contains(type) || !sources.contains(group(SOURCE, line))) {
                continue;
            }
            long time = Long.parseLong(group(TIME, line));
            first = first < 0 ? time : first;
            String url = group(URL, line);
            String params = orDefault(group(PARAMS, line), "");
            shown.append(time - first).append(" ms ").append(PHASES[Integer.parseInt(orDefault(group(PHASE, line), "0"))])
                    .append(type).append(url == null ? "" : " " + url).append(' ')
                    .append(params, 0, Math.min(params.length(), PARAMS_SHOWN)).append('\n');
        }
        return shown.toString();
    }

    /** @return the event type names by number, from the constants at the head of the log */
    private static Map<Integer, String> typeNames(List<String> lines) {
        Map<Integer, String> names = new HashMap<>();
        for (String line : lines) {
            int at = line.indexOf("\"logEventTypes\":{");
            if (at >= 0) {
                String table = line.substring(at, line.indexOf('}', at));
                Matcher matcher = EVENT_TYPE.matcher(table);
                while (matcher.find()) {
                    names.put(Integer.valueOf(matcher.group(2)), matcher.group(1));
                }
                return names;
            }
        }
        throw new IllegalStateException("no event types in the net-log's constants");
    }

    private static String group(Pattern pattern, String line) {
        Matcher matcher = pattern.matcher(line);
        return matcher.find() ? matcher.group(1) : null;
    }

    private static String orDefault(String value, String otherwise) {
        return value == null ? otherwise : value;
    }
}
