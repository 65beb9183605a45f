package io.wharf.http;

import java.util.Objects;
import java.util.function.ToLongFunction;

import io.wharf.http.internal.EntityTagScanner;

/**
 * Evaluates the conditional request fields of RFC 9110 section 13 against the current state
 * of a resource, in the order of section 13.2.2: If-Match, then If-Unmodified-Since, then
 * If-None-Match, then If-Modified-Since, and last If-Range. A resource handler calls
 * {@link #evaluate} on the thread handling the request, after it has found the resource and
 * before it sends anything, and answers 304, 412 or the (possibly partial) representation.
 *
 * <p>The rules it applies, each from the RFC:
 * <ul>
 * <li>If-Match uses strong comparison; {@code *} holds when the resource exists. When it
 *     fails the answer is 412. (The RFC lets a server answer 2xx instead when it can tell that
 *     a state change already happened; that is the caller's knowledge, not this class's.)</li>
 * <li>If-Unmodified-Since is ignored when If-Match is present, when its date is invalid or
 *     a list, and when the resource has no modification time; it fails with 412 when the
 *     resource changed after the date.</li>
 * <li>If-None-Match uses weak comparison; {@code *} fails when the resource exists. When it
 *     fails the answer is 304 for GET and HEAD and 412 for other methods.</li>
 * <li>If-Modified-Since only counts for GET and HEAD without If-None-Match, with a single
 *     valid date and a known modification time; it fails with 304 when the resource has not
 *     changed since the date.</li>
 * <li>If-Range only counts for GET and HEAD with a Range field. It holds when it is a
 *     strong tag that strongly matches the current one, or a date equal to the resource's
 *     last-modified second. A weak tag, an invalid value or several If-Range fields never
 *     hold. When it does not hold, {@link Evaluation#ignoreRange()} tells the caller to
 *     send the whole representation with 200.</li>
 * <li>CONNECT, OPTIONS and TRACE ignore every condition (section 13.2.1), and so do GET
 *     and HEAD of a resource that does not exist, since their unconditional answer is 404.</li>
 * </ul>
 *
 * <p>Times are compared in whole seconds, the resolution of an HTTP-date, so a file modified
 * at 12:00:00.700 has not changed since a client's {@code If-Modified-Since} of 12:00:00.
 *
 * <p>Peer input never throws. A tag list that is not well formed matches nothing: an
 * If-Match with one fails (412), an If-None-Match with one holds (the representation is
 * sent). A server only ever hands out well-formed tags, so a malformed one cannot name a
 * representation it has.
 *
 * <p>Immutable and safe to share between threads. A call allocates nothing but a small
 * scanner per entity tag field; its time is linear in the size of the fields.
 */
public final class Preconditions {

    /** What to answer, from the first four conditions. */
    public enum Result {
        /** Every condition holds or was ignored: perform the method. */
        PROCEED(HttpStatus.OK_200),
        /** A GET or HEAD whose If-None-Match or If-Modified-Since failed: answer 304. */
        NOT_MODIFIED(HttpStatus.NOT_MODIFIED_304),
        /** If-Match or If-Unmodified-Since failed, or If-None-Match failed for another method: answer 412. */
        PRECONDITION_FAILED(HttpStatus.PRECONDITION_FAILED_412);

        private final int status;

        Result(int status) {
            this.status = status;
        }

        /** @return the status that answers this result: 200 (or 206), 304 or 412 */
        public int status() {
            return status;
        }
    }

    /**
     * The outcome of {@link #evaluate}.
     *
     * @param result what to answer
     * @param ignoreRange true only when the result is {@link Result#PROCEED}, the request has a
     *     Range and an If-Range field, and the If-Range condition does not hold: send the whole
     *     representation with 200 instead of the ranges
     */
    public record Evaluation(Result result, boolean ignoreRange) {

        public static final Evaluation PROCEED = new Evaluation(Result.PROCEED, false);
        public static final Evaluation PROCEED_IGNORING_RANGE = new Evaluation(Result.PROCEED, true);
        public static final Evaluation NOT_MODIFIED = new Evaluation(Result.NOT_MODIFIED, false);
        public static final Evaluation PRECONDITION_FAILED = new Evaluation(Result.PRECONDITION_FAILED, false);

        public Evaluation {
            Objects.requireNonNull(result, "result");
            if (ignoreRange && result != Result.PROCEED) {
                throw new IllegalArgumentException("only a PROCEED result can ignore the Range field");
            }
        }
    }

    /** How a list of tags compared with the current tag. */
    private enum TagCondition {
        ABSENT, MATCH, NO_MATCH
    }

    private final ToLongFunction<String> dateParser;

    /**
     * @param dateParser parses an HTTP-date (IMF-fixdate, RFC 850 or asctime form) into
     *     milliseconds since the epoch, answering a negative number (conventionally -1) for a
     *     value that is not a valid date; it must not throw
     */
    public Preconditions(ToLongFunction<String> dateParser) {
        this.dateParser = Objects.requireNonNull(dateParser, "dateParser");
    }

    /**
     * @param method the request method, e.g. {@code "GET"}
     * @param fields the request's header fields
     * @param currentTag the entity tag of the selected representation, or null when it has none
     * @param lastModified the representation's last-modified time in milliseconds since the
     *     epoch, or -1 when unknown
     * @param exists whether the resource has a current representation; when false the tag and
     *     time are taken as absent
     * @return what to answer; one of the {@link Evaluation} constants
     */
    public Evaluation evaluate(String method, HttpFields fields, EntityTag currentTag, long lastModified, boolean exists) {
        boolean getOrHead = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
        if (HttpMethod.CONNECT.is(method) || HttpMethod.OPTIONS.is(method) || HttpMethod.TRACE.is(method)) {
            return Evaluation.PROCEED;
        }
        if (getOrHead && !exists) {
            return Evaluation.PROCEED;
        }
        EntityTag tag = exists ? currentTag : null;
        long modified = exists ? lastModified : -1;

        TagCondition ifMatch = compareTags(fields, HttpHeader.IF_MATCH, tag, exists, true);
        if (ifMatch == TagCondition.NO_MATCH) {
            return Evaluation.PRECONDITION_FAILED;
        }
        if (ifMatch == TagCondition.ABSENT) {
            long date = singleDate(fields, HttpHeader.IF_UNMODIFIED_SINCE);
            if (date >= 0 && modified >= 0 && seconds(modified) > seconds(date)) {
                return Evaluation.PRECONDITION_FAILED;
            }
        }
        TagCondition ifNoneMatch = compareTags(fields, HttpHeader.IF_NONE_MATCH, tag, exists, false);
        if (ifNoneMatch == TagCondition.MATCH) {
            return getOrHead ? Evaluation.NOT_MODIFIED : Evaluation.PRECONDITION_FAILED;
        }
        if (getOrHead && ifNoneMatch == TagCondition.ABSENT) {
            long date = singleDate(fields, HttpHeader.IF_MODIFIED_SINCE);
            if (date >= 0 && modified >= 0 && seconds(modified) <= seconds(date)) {
                return Evaluation.NOT_MODIFIED;
            }
        }
        if (getOrHead && fields.contains(HttpHeader.RANGE) && fields.contains(HttpHeader.IF_RANGE)
                && !ifRangeHolds(fields, tag, modified)) {
            return Evaluation.PROCEED_IGNORING_RANGE;
        }
        return Evaluation.PROCEED;
    }

    /**
     * Compares every field of {@code header} with the current tag. {@code *} matches when the
     * resource exists, and only as the sole field; a malformed field matches nothing.
     */
    private static TagCondition compareTags(HttpFields fields, HttpHeader header, EntityTag current, boolean exists,
            boolean strong) {
        int count = 0;
        boolean any = false;
        boolean matched = false;
        for (int i = 0, size = fields.size(); i < size; i++) {
            HttpField field = fields.getField(i);
            if (field.getHeader() != header) {
                continue;
            }
            count++;
            if (EntityTagScanner.isAny(field.getValue())) {
                any = true;
            } else if (!matched) {
                matched = listMatches(field.getValue(), current, strong);
            }
        }
        if (count == 0) {
            return TagCondition.ABSENT;
        }
        if (any) {
            return count == 1 && exists ? TagCondition.MATCH : TagCondition.NO_MATCH;
        }
        return matched ? TagCondition.MATCH : TagCondition.NO_MATCH;
    }

    /** @return whether a well-formed list in {@code value} holds a tag matching {@code current} */
    private static boolean listMatches(String value, EntityTag current, boolean strong) {
        EntityTagScanner scanner = new EntityTagScanner(value);
        boolean matched = false;
        boolean empty = true;
        while (true) {
            switch (scanner.next()) {
                case TAG -> {
                    empty = false;
                    if (current != null && !matched && scanner.opaqueEquals(current.opaque())) {
                        matched = !strong || (!scanner.weak() && !current.weak());
                    }
                }
                case MALFORMED -> {
                    return false;
                }
                case END -> {
                    return matched && !empty;
                }
            }
        }
    }

    /** @return the date of the only field of {@code header}, or -1 when absent, repeated or invalid */
    private long singleDate(HttpFields fields, HttpHeader header) {
        HttpField only = onlyField(fields, header);
        if (only == null) {
            return -1;
        }
        long date = dateParser.applyAsLong(only.getValue());
        return date < 0 ? -1 : date;
    }

    private boolean ifRangeHolds(HttpFields fields, EntityTag current, long modified) {
        HttpField only = onlyField(fields, HttpHeader.IF_RANGE);
        if (only == null) {
            return false;
        }
        String value = only.getValue();
        if (looksLikeEntityTag(value)) {
            if (current == null || current.weak()) {
                return false;
            }
            EntityTagScanner scanner = new EntityTagScanner(value);
            return scanner.next() == EntityTagScanner.Step.TAG
                    && scanner.opaqueStart() == 1
                    && scanner.opaqueEnd() + 1 == value.length()
                    && !scanner.weak()
                    && scanner.opaqueEquals(current.opaque());
        }
        long date = dateParser.applyAsLong(value);
        return date >= 0 && modified >= 0 && seconds(date) == seconds(modified);
    }

    /** RFC 9110 section 13.1.5: a double quote among the first three characters means a tag. */
    private static boolean looksLikeEntityTag(String value) {
        for (int i = 0; i < 3 && i < value.length(); i++) {
            if (value.charAt(i) == '"') {
                return true;
            }
        }
        return false;
    }

    /** @return the field of {@code header} when there is exactly one, else null */
    private static HttpField onlyField(HttpFields fields, HttpHeader header) {
        HttpField found = null;
        for (int i = 0, size = fields.size(); i < size; i++) {
            HttpField field = fields.getField(i);
            if (field.getHeader() == header) {
                if (found != null) {
                    return null;
                }
                found = field;
            }
        }
        return found;
    }

    private static long seconds(long millis) {
        return Math.floorDiv(millis, 1000);
    }
}
