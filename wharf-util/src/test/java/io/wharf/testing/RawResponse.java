package io.wharf.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Test helper shared with the modules above: reads an HTTP/1.1 response given as text (one char
 * a byte, as an in-memory connector returns it) — its status, its header values, its content with
 * chunks joined.
 */
public final class RawResponse {

    private RawResponse() {
    }

    /** @return the status code of the status line */
    public static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    /** @return the content, its chunks joined when it is chunked */
    public static String content(String response) {
        int end = response.indexOf("\r\n\r\n");
        String body = end < 0 ? "" : response.substring(end + 4);
        if (!"chunked".equalsIgnoreCase(header(response, "Transfer-Encoding"))) {
            return body;
        }
        StringBuilder joined = new StringBuilder();
        int at = 0;
        while (true) {
            int lineEnd = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return joined.toString();
            }
            joined.append(body, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
    }

    /** @return the first value of header {@code name}, or null */
    public static String header(String response, String name) {
        List<String> values = headers(response, name);
        return values.isEmpty() ? null : values.get(0);
    }

    /** @return every value of header {@code name}, in order */
    public static List<String> headers(String response, String name) {
        int end = response.indexOf("\r\n\r\n");
        String head = end < 0 ? response : response.substring(0, end);
        List<String> values = new ArrayList<>();
        String prefix = name.toLowerCase(Locale.ROOT) + ":";
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                values.add(line.substring(prefix.length()).trim());
            }
        }
        return values;
    }
}
