package io.wharf.http;

import java.util.List;
import java.util.Objects;

/**
 * A request's {@code Accept-Encoding} (RFC 9110 section 12.5.3), read once, and the one place
 * that decides which content coding a response is sent in: the compression handler asks it
 * whether to gzip, the resource handler which precompressed file to serve.
 *
 * <p><b>The rules.</b> Each coding the server can send, and {@code identity} (no coding), gets
 * the quality the request's {@link QualityList} gives it: its own element, else {@code *},
 * else 0 — except {@code identity}, which stays acceptable at the lowest quality unless an
 * element refuses it or refuses {@code *}. Codings and {@code *} match without regard to case,
 * and {@code x-gzip} is {@code gzip} (RFC 9110 section 8.4.1.3): an element {@code x-gzip}
 * weighs {@code gzip} when the request does not name {@code gzip} itself. The coding with the
 * highest quality is chosen; on equal quality the server's order wins, a coding before
 * {@code identity}. So {@code gzip;q=0.5, identity} gets identity, {@code gzip;q=0} never
 * gets gzip, {@code *} gets the server's first coding, and {@code identity;q=0, gzip;q=0.1}
 * gets gzip.
 *
 * <p><b>No field, an empty field, nothing acceptable.</b> Without the field, identity is sent
 * (the RFC would allow any coding, but a client that says nothing may not decode one). An
 * empty field asks for no coding: identity. When neither a coding nor identity is acceptable
 * ({@code *;q=0}, or {@code gzip;q=0, identity;q=0}), the field is disregarded and identity is
 * sent, as RFC 9110 section 12.1 allows and as most servers do, rather than a 406 that would
 * leave the client with nothing; {@link #isIdentityRefused()} tells that case apart.
 *
 * <p><b>Threads.</b> Immutable; made and used by the thread handling a request. It keeps the
 * parsed list, never a buffer.
 */
public final class AcceptEncoding {

    /** The coding that means no coding. */
    public static final String IDENTITY = "identity";
    /** The request did not have the field: identity is chosen. */
    public static final AcceptEncoding ABSENT = new AcceptEncoding(QualityList.ABSENT);

    private static final String GZIP = "gzip";
    private static final String X_GZIP = "x-gzip";

    private final QualityList list;
    /** The quality of identity, which every choice weighs: worked out once. */
    private final int identityQuality;

    private AcceptEncoding(QualityList list) {
        this.list = list;
        this.identityQuality = quality(IDENTITY);
    }

    /** @return the {@code Accept-Encoding} of a request's fields, all of its field lines taken together */
    public static AcceptEncoding of(HttpFields requestFields) {
        return parse(requestFields.getValuesList(HttpHeader.ACCEPT_ENCODING));
    }

    /** @param fieldValues the value of each {@code Accept-Encoding} field, in order; empty when there was none */
    public static AcceptEncoding parse(List<String> fieldValues) {
        return fieldValues.isEmpty() ? ABSENT : new AcceptEncoding(QualityList.parse(fieldValues));
    }

    /**
     * @param coding a content coding token such as {@code gzip}, or {@code identity}
     * @return its quality in thousandths, 0 (refused) to {@link QualityList#MAX_QUALITY}; without
     *     the field, {@link QualityList#MAX_QUALITY} for identity and 0 for any coding
     */
    public int quality(String coding) {
        Objects.requireNonNull(coding, "coding");
        if (list == QualityList.ABSENT) {
            return coding.equalsIgnoreCase(IDENTITY) ? QualityList.MAX_QUALITY : 0;
        }
        if (coding.equalsIgnoreCase(GZIP) || coding.equalsIgnoreCase(X_GZIP)) {
            return gzipQuality();
        }
        return list.getQuality(coding);
    }

    /** @return the quality of the element naming gzip, else of one naming x-gzip, else what {@code *} gives */
    private int gzipQuality() {
        boolean named = false;
        for (QualityList.Entry entry : list.getEntries()) {
            if (entry.value().equalsIgnoreCase(GZIP)) {
                return list.getQuality(GZIP);
            }
            named |= entry.value().equalsIgnoreCase(X_GZIP);
        }
        return list.getQuality(named ? X_GZIP : GZIP);
    }

    /**
     * @param codings the codings the server can send this response in, its preferred first
     *     (without {@code identity}, which is always a candidate, after them)
     * @return the chosen element of {@code codings}, or {@link #IDENTITY}; never null
     */
    public String choose(List<String> codings) {
        String best = IDENTITY;
        int bestQuality = identityQuality;
        for (int i = codings.size() - 1; i >= 0; i--) {
            String coding = codings.get(i);
            int quality = quality(coding);
            // Walking back, >= lets an earlier coding win a tie, and any coding beat identity at equal quality.
            if (quality > 0 && quality >= bestQuality) {
                best = coding;
                bestQuality = quality;
            }
        }
        return best;
    }

    /** @return whether the request refuses identity ({@code identity;q=0}, or {@code *;q=0} without identity) */
    public boolean isIdentityRefused() {
        return identityQuality == 0;
    }

    @Override
    public String toString() {
        return "AcceptEncoding" + list;
    }
}
