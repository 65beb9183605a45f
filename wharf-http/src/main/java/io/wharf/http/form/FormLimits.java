package io.wharf.http.form;

/**
 * The limits a {@link UrlEncodedParser} enforces on one {@code application/x-www-form-urlencoded}
 * body or query string. Exceeding either fails the parse at once with a
 * {@link io.wharf.http.BadMessageException} of status 413 whose reason names the limit and
 * its value.
 *
 * <p>An immutable value, shared freely between threads.
 *
 * @param maxKeys the most {@code name=value} pairs (every repeat of a name counts), or -1
 *     for no limit; default 1000
 * @param maxContentBytes the most bytes of encoded content, or -1 for no limit; default
 *     200,000. It also bounds the memory a parse holds, since decoding never grows the text.
 */
public record FormLimits(int maxKeys, long maxContentBytes) {

    /** The safe defaults: 1000 keys and 200,000 bytes. */
    public static final FormLimits DEFAULT = new FormLimits(1000, 200_000);

    /**
     * @throws IllegalArgumentException when a limit is below -1
     */
    public FormLimits {
        if (maxKeys < -1) {
            throw new IllegalArgumentException("maxKeys must be -1 (no limit) or at least 0: " + maxKeys);
        }
        if (maxContentBytes < -1) {
            throw new IllegalArgumentException("maxContentBytes must be -1 (no limit) or at least 0: " + maxContentBytes);
        }
    }

    /** @return these limits with {@code maxKeys} changed */
    public FormLimits withMaxKeys(int maxKeys) {
        return new FormLimits(maxKeys, maxContentBytes);
    }

    /** @return these limits with {@code maxContentBytes} changed */
    public FormLimits withMaxContentBytes(long maxContentBytes) {
        return new FormLimits(maxKeys, maxContentBytes);
    }
}
