package io.wharf.http.internal;

/**
 * Makes peer text safe for a log line or an error reason: printable ASCII is kept, every
 * other character is written as {@code %XX} (below U+0100) or {@code \}{@code uXXXX}, and
 * long text is cut with {@code "..."}. Stateless; callable from any thread.
 */
public final class PrintableText {

    private PrintableText() {
    }

    /**
     * @param text peer text, possibly hostile
     * @param maximumLength how many characters of {@code text} to show at most
     * @return the escaped, possibly truncated text
     */
    public static String escape(CharSequence text, int maximumLength) {
        int shown = Math.min(text.length(), maximumLength);
        StringBuilder out = new StringBuilder(shown + 8);
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c > 0x20 && c < 0x7F) {
                out.append(c);
            } else if (c < 0x100) {
                PercentEncoding.appendTriplet(out, c);
            } else {
                out.append("\\u").append(String.format("%04X", (int) c));
            }
        }
        if (shown < text.length()) {
            out.append("...");
        }
        return out.toString();
    }

    /** @return {@code c} quoted when it is printable ASCII, otherwise its code as {@code 0xNN} */
    public static String describe(char c) {
        if (c > 0x20 && c < 0x7F) {
            return "'" + c + "'";
        }
        return String.format("0x%02X", (int) c);
    }
}
