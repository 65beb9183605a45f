package io.wharf.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.wharf.http.internal.EntityTagScanner;
import io.wharf.http.internal.HttpTokens;

/**
 * An entity tag, the validator of RFC 9110 section 8.8.3: an opaque string, kept here
 * without its double quotes, and whether it is weak ({@code W/"..."}). A server makes one
 * for each representation it serves ({@link #ofFile}, {@link #withVariant}) and sends it in
 * {@code ETag}; {@link Preconditions} compares the tags a client sends back against it.
 *
 * <p>Immutable and safe to share between threads; holds no buffers. Parsing is strict and
 * linear: a malformed value is an {@link IllegalArgumentException} whose message names the
 * problem and its index but never repeats the value.
 *
 * @param opaque the characters between the quotes: any of {@code %x21 / %x23-7E / %x80-FF},
 *     possibly none
 * @param weak whether the tag is weak, so that only weak comparison can match it
 */
public record EntityTag(String opaque, boolean weak) {

    /** The separator between a base tag and the content coding of a precompressed variant. */
    public static final String VARIANT_SEPARATOR = "--";

    /**
     * @throws IllegalArgumentException when {@code opaque} holds a character that an entity tag
     *     cannot carry (a double quote, a blank, a control character or beyond ISO-8859-1)
     */
    public EntityTag {
        if (opaque == null) {
            throw new IllegalArgumentException("entity tag has no opaque part");
        }
        for (int i = 0; i < opaque.length(); i++) {
            if (!EntityTagScanner.isTagCharacter(opaque.charAt(i))) {
                throw new IllegalArgumentException(String.format(
                        "character 0x%02X at index %d is not allowed in an entity tag", (int) opaque.charAt(i), i));
            }
        }
    }

    /**
     * Parses one tag, {@code "xyz"} or {@code W/"xyz"}, with nothing around it.
     *
     * @throws IllegalArgumentException when {@code value} is not exactly one entity tag
     */
    public static EntityTag parse(String value) {
        EntityTagScanner scanner = new EntityTagScanner(value);
        if (value.isEmpty() || value.charAt(0) == ' ' || value.charAt(0) == '\t' || value.charAt(0) == ',') {
            throw new IllegalArgumentException("not an entity tag: it must start with '\"' or 'W/\"'");
        }
        EntityTagScanner.Step step = scanner.next();
        if (step == EntityTagScanner.Step.MALFORMED) {
            throw new IllegalArgumentException("malformed entity tag: " + scanner.problem());
        }
        if (scanner.opaqueEnd() + 1 != value.length()) {
            throw new IllegalArgumentException("malformed entity tag: characters after the closing quote at index "
                    + (scanner.opaqueEnd() + 1));
        }
        return new EntityTag(scanner.opaque(), scanner.weak());
    }

    /**
     * Parses the value of an {@code If-Match} or {@code If-None-Match} field that is a list of
     * tags; blanks around commas and empty elements are allowed (RFC 9110 section 5.6.1). The
     * value {@code *} is not a list: test for it with {@link #isAny} first.
     *
     * @return the tags in the order given, at least one; unmodifiable
     * @throws IllegalArgumentException when the value is {@code *}, holds no tag, or is not a
     *     comma-separated list of well-formed tags
     */
    public static List<EntityTag> parseList(String fieldValue) {
        EntityTagScanner scanner = new EntityTagScanner(fieldValue);
        List<EntityTag> tags = new ArrayList<>(2);
        while (true) {
            switch (scanner.next()) {
                case TAG -> tags.add(new EntityTag(scanner.opaque(), scanner.weak()));
                case MALFORMED -> throw new IllegalArgumentException("malformed entity tag list: " + scanner.problem());
                case END -> {
                    if (tags.isEmpty()) {
                        throw new IllegalArgumentException("entity tag list holds no entity tag");
                    }
                    return Collections.unmodifiableList(tags);
                }
            }
        }
    }

    /**
     * @return whether an {@code If-Match} or {@code If-None-Match} value is {@code *}, "any
     *     current representation" (blanks around it allowed)
     */
    public static boolean isAny(String fieldValue) {
        return EntityTagScanner.isAny(fieldValue);
    }

    /**
     * Makes the tag of a file from its length and last-modified time, as
     * {@code "<length in base 36>-<mtime in base 36>"} (mtime as an unsigned number, so the tag
     * never holds {@code --}, which {@link #withVariant} reserves).
     *
     * <p>A strong tag lets clients resume downloads with {@code If-Range}; it is what nginx and
     * Apache send for files and is right as long as a file is not rewritten with the same
     * length within the same millisecond. Choose weak where the file system's clock is coarse
     * or files are rewritten in place.
     *
     * @param lastModified the file's last-modified time in milliseconds since the epoch
     * @param length the file's length in bytes
     * @param weak whether to make a weak tag
     * @throws IllegalArgumentException when {@code length} is negative
     */
    public static EntityTag ofFile(long lastModified, long length, boolean weak) {
        if (length < 0) {
            throw new IllegalArgumentException("negative file length: " + length);
        }
        return new EntityTag(Long.toString(length, 36) + '-' + Long.toUnsignedString(lastModified, 36), weak);
    }

    /**
     * Makes the tag of a variant of this representation stored in another content coding, such
     * as a precompressed {@code file.gz}, so that every representation of a resource has its
     * own tag (RFC 9110 section 8.8.3): {@code "abc"} becomes {@code "abc--gzip"}, with the
     * same strength.
     *
     * @param coding the content coding, a token such as {@code gzip}, {@code br} or {@code zstd}
     * @throws IllegalArgumentException when {@code coding} is empty or not a token
     */
    public EntityTag withVariant(String coding) {
        if (coding == null || coding.isEmpty()) {
            throw new IllegalArgumentException("empty content coding for an entity tag variant");
        }
        for (int i = 0; i < coding.length(); i++) {
            if (!HttpTokens.isTokenChar(coding.charAt(i))) {
                throw new IllegalArgumentException(String.format(
                        "character 0x%02X at index %d of a content coding is not a token character", (int) coding.charAt(i), i));
            }
        }
        return new EntityTag(opaque + VARIANT_SEPARATOR + coding, weak);
    }

    /** @return the wire form: {@code "opaque"} or {@code W/"opaque"} */
    public String asString() {
        return weak ? "W/\"" + opaque + '"' : '"' + opaque + '"';
    }

    /**
     * The strong comparison of RFC 9110 section 8.8.3.2, used for If-Match and If-Range.
     *
     * @return whether both tags are strong and their opaque parts are identical
     */
    public boolean strongMatch(EntityTag other) {
        return !weak && !other.weak && opaque.equals(other.opaque);
    }

    /**
     * The weak comparison of RFC 9110 section 8.8.3.2, used for If-None-Match.
     *
     * @return whether the opaque parts are identical, whatever either tag's strength
     */
    public boolean weakMatch(EntityTag other) {
        return opaque.equals(other.opaque);
    }

    /** @return {@link #asString()} */
    @Override
    public String toString() {
        return asString();
    }
}
