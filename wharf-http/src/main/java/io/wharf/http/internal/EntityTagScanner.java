package io.wharf.http.internal;

/**
 * Walks the entity tags of one field value, {@code #entity-tag} of RFC 9110 section 8.8.3,
 * left to right without making Strings: each {@link #next()} finds the next tag and leaves
 * its opaque part as the index range {@link #opaqueStart()}..{@link #opaqueEnd()} of the
 * value, with {@link #weak()} telling whether it had the {@code W/} prefix. Empty list
 * elements and blanks around commas are skipped (section 5.6.1); anything else outside a
 * tag makes the value malformed, and {@link #problem()} then says what and where without
 * quoting the value.
 *
 * <p>A list element may not be {@code *}: callers look for a lone {@code *} first. One
 * scanner per value, used on one thread; linear time, no allocation until a problem is
 * described.
 */
public final class EntityTagScanner {

    /** What {@link #next()} found. */
    public enum Step {
        /** A well-formed tag; its bounds and weakness are readable. */
        TAG,
        /** The end of the value, after zero or more tags. */
        END,
        /** Something that is not an entity tag; {@link #problem()} names it. */
        MALFORMED
    }

    private final String value;
    private int position;
    private int opaqueStart;
    private int opaqueEnd;
    private boolean weak;
    private int problemIndex = -1;
    private String problem;

    public EntityTagScanner(String value) {
        this.value = value;
    }

    /** @return whether {@code c} may appear inside the quotes of a tag (etagc) */
    public static boolean isTagCharacter(char c) {
        return c == 0x21 || (c >= 0x23 && c <= 0x7E) || (c >= 0x80 && c <= 0xFF);
    }

    /**
     * @return whether {@code value}, trimmed of blanks, is exactly {@code *}; allocates nothing
     */
    public static boolean isAny(String value) {
        int from = 0;
        int to = value.length();
        while (from < to && HttpTokens.isBlank(value.charAt(from))) {
            from++;
        }
        while (to > from && HttpTokens.isBlank(value.charAt(to - 1))) {
            to--;
        }
        return to - from == 1 && value.charAt(from) == '*';
    }

    /** @return the next tag, the end, or a malformed value (after which the scanner stays put) */
    public Step next() {
        if (problem != null) {
            return Step.MALFORMED;
        }
        int length = value.length();
        while (position < length && (HttpTokens.isBlank(value.charAt(position)) || value.charAt(position) == ',')) {
            position++;
        }
        if (position == length) {
            return Step.END;
        }
        weak = false;
        if (value.charAt(position) == '*') {
            return fail(position, "'*' must be the whole field value, not a list element");
        }
        if (value.charAt(position) == 'W') {
            if (position + 1 >= length || value.charAt(position + 1) != '/') {
                return fail(position, "'W' not followed by '/'");
            }
            weak = true;
            position += 2;
        }
        if (position >= length || value.charAt(position) != '"') {
            return fail(position, "an entity tag must start with a double quote");
        }
        opaqueStart = ++position;
        while (position < length && value.charAt(position) != '"') {
            if (!isTagCharacter(value.charAt(position))) {
                return fail(position, "character " + describe(value.charAt(position)) + " is not allowed in an entity tag");
            }
            position++;
        }
        if (position == length) {
            return fail(position, "the entity tag has no closing double quote");
        }
        opaqueEnd = position++;
        while (position < length && HttpTokens.isBlank(value.charAt(position))) {
            position++;
        }
        if (position < length && value.charAt(position) != ',') {
            return fail(position, "expected a comma after an entity tag");
        }
        return Step.TAG;
    }

    /** @return the index in the value of the first character of the last tag's opaque part */
    public int opaqueStart() {
        return opaqueStart;
    }

    /** @return the index in the value just after the last tag's opaque part (its closing quote) */
    public int opaqueEnd() {
        return opaqueEnd;
    }

    /** @return whether the last tag was weak ({@code W/} prefix) */
    public boolean weak() {
        return weak;
    }

    /** @return whether the last tag's opaque part equals {@code opaque}, exactly */
    public boolean opaqueEquals(String opaque) {
        int length = opaqueEnd - opaqueStart;
        return length == opaque.length() && value.regionMatches(opaqueStart, opaque, 0, length);
    }

    /** @return the last tag's opaque part as a new String */
    public String opaque() {
        return value.substring(opaqueStart, opaqueEnd);
    }

    /**
     * @return after {@link Step#MALFORMED}, what is wrong and at which index, never quoting the
     *     value; otherwise null
     */
    public String problem() {
        return problem == null ? null : problem + " at index " + problemIndex;
    }

    private Step fail(int index, String what) {
        problemIndex = index;
        problem = what;
        return Step.MALFORMED;
    }

    private static String describe(char c) {
        return String.format("0x%02X", (int) c);
    }
}
