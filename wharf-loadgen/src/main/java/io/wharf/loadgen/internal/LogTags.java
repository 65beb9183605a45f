package io.wharf.loadgen.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The tags of the histograms in an interval log, and the resource names in them. HdrHistogram's
 * log format forbids commas, white space and line breaks in a tag, so a resource's name
 * ({@code /search?q=a,b}, {@code POST /api}) goes in percent-encoded: those characters,
 * {@code %} itself and anything beyond ASCII as {@code %XX} of their UTF-8 bytes. Stateless; any thread.
 */
final class LogTags {

    static final String CORRECTED = "corrected";
    static final String UNCORRECTED = "uncorrected";
    static final String TREES = "trees";
    static final String PROBE = "probe";
    static final String RESOURCE_PREFIX = "resource:";

    private LogTags() {
    }

    /** @return the tag of the resource named {@code name} */
    static String resource(String name) {
        StringBuilder tag = new StringBuilder(RESOURCE_PREFIX.length() + name.length()).append(RESOURCE_PREFIX);
        for (byte octet : name.getBytes(StandardCharsets.UTF_8)) {
            int c = octet & 0xFF;
            if (c <= ' ' || c == ',' || c == '%' || c >= 0x7F) {
                tag.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            } else {
                tag.append((char) c);
            }
        }
        return tag.toString();
    }

    /** @return the name of the resource {@code tag} stands for, or null when it is not a resource's tag */
    static String resourceName(String tag) {
        if (tag == null || !tag.startsWith(RESOURCE_PREFIX)) {
            return null;
        }
        ByteArrayOutputStream name = new ByteArrayOutputStream(tag.length());
        for (int i = RESOURCE_PREFIX.length(); i < tag.length(); i++) {
            char c = tag.charAt(i);
            if (c == '%') {
                int high = i + 2 < tag.length() ? Character.digit(tag.charAt(i + 1), 16) : -1;
                int low = i + 2 < tag.length() ? Character.digit(tag.charAt(i + 2), 16) : -1;
                if (high < 0 || low < 0) {
                    throw new IllegalArgumentException("the histogram tag '" + tag + "' has a bad %-escape at " + i);
                }
                name.write(high << 4 | low);
                i += 2;
            } else {
                name.write(c);
            }
        }
        return name.toString(StandardCharsets.UTF_8);
    }
}
