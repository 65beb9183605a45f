package io.wharf.http;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import io.wharf.http.internal.QualityListParser;

/**
 * A parsed quality list (RFC 9110 section 12.4.2): the value of {@code Accept},
 * {@code Accept-Encoding}, {@code Accept-Language} or {@code Accept-Charset}, whose elements
 * carry an optional weight {@code ;q=0.5}. It answers how acceptable a candidate is — a media
 * type matched against media ranges ({@code text/html}, {@code text/*}, {@code *}{@code /*}) or
 * a token matched against tokens and {@code *} — and which of the server's candidates the
 * client prefers. An error handler uses it to pick HTML, JSON or plain text by {@code Accept};
 * a compression handler to pick a content coding by {@code Accept-Encoding}.
 *
 * <p><b>Threads and ownership.</b> A list is immutable once parsed; the thread handling a
 * request makes it and may share it. It keeps strings copied out of the field values, never a
 * buffer.
 *
 * <p><b>Reading.</b> {@link #parse(List, int, int)} makes one pass over the field values
 * (see {@link QualityListParser}): commas and semicolons inside quoted strings separate
 * nothing, blanks are trimmed, elements with an empty value are dropped. Only the first
 * {@code maxEntries} elements are kept (the rest is not read), and per element only the first
 * {@code maxParameters} parameters besides the weight; so hostile input costs time linear in
 * its length and bounded memory. A parameter named {@code q} (any case) is the weight,
 * wherever it stands; only an element's first {@code q} counts. Weights are read strictly
 * ({@code 0}, {@code 0.5}, {@code 0.123}, {@code 1}, {@code 1.000}) and kept in thousandths;
 * <b>an invalid weight ({@code q=2}, {@code q=0.5000}, {@code q=-1}, {@code q=}, {@code q="1"})
 * makes the element refused, quality 0</b>, rather than dropping it: a malformed weight must
 * never let a wildcard accept what the client tried to weigh.
 *
 * <p><b>Order.</b> {@link #getEntries()} is sorted by quality, highest first; then by
 * specificity ({@code text/html} before {@code text/*} before {@code *}{@code /*}, a token
 * before {@code *}, and more parameters before fewer); then in the order received.
 *
 * <p><b>Matching.</b> A candidate's quality is that of the most specific element matching it
 * (the first received among equally specific ones). An element matches when its value
 * matches without regard to ASCII case and each of its parameters is among the candidate's
 * (names and values compared without case), so {@code text/html;level=1} matches the
 * candidate {@code text/html;level=1} but not {@code text/html}. A lone {@code *} acts as
 * {@code *}{@code /*} for media types. A candidate no element matches has quality 0 — except
 * {@code identity}, which stays acceptable unless an element refuses it or refuses {@code *}
 * (RFC 9110 section 12.5.3): unmentioned, it has the lowest acceptable quality, 1, so that it
 * is accepted but never preferred over a coding the client listed. When the request had no such field at all, use {@link #ABSENT}
 * ({@code parse} of an empty list answers it), which accepts everything.
 */
public final class QualityList {

    /** The default bound on the elements kept. */
    public static final int DEFAULT_MAX_ENTRIES = 64;
    /** The default bound on the parameters kept per element, not counting the weight. */
    public static final int DEFAULT_MAX_PARAMETERS = 16;
    /** The highest quality, {@code q=1}, in thousandths. */
    public static final int MAX_QUALITY = 1000;
    /** The quality of {@code identity} when no element matches it: the lowest acceptable. */
    public static final int UNMENTIONED_IDENTITY_QUALITY = 1;

    /** The list of a request without the field: every candidate has quality {@link #MAX_QUALITY}. */
    public static final QualityList ABSENT = new QualityList(List.of(), true);

    private static final String IDENTITY = "identity";

    /** Highest quality first, then most specific, then first received. */
    private static final Comparator<Ranked> ORDER = Comparator
            .comparingInt((Ranked ranked) -> -ranked.entry.quality())
            .thenComparingInt(ranked -> -ranked.specificity)
            .thenComparingInt(ranked -> ranked.received);

    /** Entries in received order, each with its specificity. */
    private final List<Ranked> received;
    private final List<Entry> entries;
    private final List<String> values;
    private final boolean absent;

    private QualityList(List<Entry> parsed, boolean absent) {
        List<Ranked> ranked = new ArrayList<>(parsed.size());
        for (int i = 0; i < parsed.size(); i++) {
            Entry entry = parsed.get(i);
            ranked.add(new Ranked(entry, specificity(entry.value(), entry.parameters().size()), i));
        }
        this.received = List.copyOf(ranked);
        List<Ranked> sorted = new ArrayList<>(ranked);
        sorted.sort(ORDER);
        this.entries = sorted.stream().map(Ranked::entry).toList();
        this.values = entries.stream().filter(entry -> entry.quality() > 0).map(Entry::value).toList();
        this.absent = absent;
    }

    /** @return the list of one field value; a null value gives {@link #ABSENT} */
    public static QualityList parse(String fieldValue) {
        return fieldValue == null ? ABSENT : parse(List.of(fieldValue));
    }

    /**
     * @param fieldValues the value of each field of the name, in order, as
     *     {@link HttpFields#getValuesList(HttpHeader)} gives them; empty when there was none
     * @return the list, {@link #ABSENT} when {@code fieldValues} is empty, with the default bounds
     */
    public static QualityList parse(List<String> fieldValues) {
        return parse(fieldValues, DEFAULT_MAX_ENTRIES, DEFAULT_MAX_PARAMETERS);
    }

    /**
     * @return the list of the field values, {@link #ABSENT} when there is none, keeping at most
     *     {@code maxEntries} elements and {@code maxParameters} parameters per element
     * @throws IllegalArgumentException when a bound is not positive (or negative, for parameters)
     */
    public static QualityList parse(List<String> fieldValues, int maxEntries, int maxParameters) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1, not " + maxEntries);
        }
        if (maxParameters < 0) {
            throw new IllegalArgumentException("maxParameters must not be negative, not " + maxParameters);
        }
        if (fieldValues.isEmpty()) {
            return ABSENT;
        }
        return new QualityList(QualityListParser.parse(fieldValues, maxEntries, maxParameters), false);
    }

    /** @return the acceptable values (quality above 0) without parameters, in {@linkplain QualityList order} */
    public List<String> getValues() {
        return values;
    }

    /** @return every element kept, refused ones (quality 0) last, in {@linkplain QualityList order} */
    public List<Entry> getEntries() {
        return entries;
    }

    /**
     * @param candidate a media type such as {@code text/html} or {@code text/html;level=1}, or a
     *     token such as {@code gzip}
     * @return the candidate's quality in thousandths, 0 (refused) to {@link #MAX_QUALITY}
     */
    public int getQuality(String candidate) {
        return match(Objects.requireNonNull(candidate, "candidate")).quality;
    }

    /** @return whether {@code candidate}'s quality is above 0 */
    public boolean isAcceptable(String candidate) {
        return getQuality(candidate) > 0;
    }

    /**
     * Picks what to send: the candidate with the highest quality; among equals, the one matched
     * by the more specific element (so {@code Accept: application/json, *}{@code /*} picks JSON
     * over the HTML a server lists first); then the first in {@code candidates}, which is the
     * server's own preference.
     *
     * @return the preferred candidate, or null when none is acceptable
     */
    public String preferred(List<String> candidates) {
        String best = null;
        Match bestMatch = null;
        for (String candidate : candidates) {
            Match match = match(candidate);
            if (match.quality > 0 && (bestMatch == null || match.quality > bestMatch.quality
                    || match.quality == bestMatch.quality && match.specificity > bestMatch.specificity)) {
                best = candidate;
                bestMatch = match;
            }
        }
        return best;
    }

    private Match match(String candidate) {
        if (absent) {
            return new Match(MAX_QUALITY, 0);
        }
        List<Entry> parsed = QualityListParser.parse(List.of(candidate), 1, DEFAULT_MAX_PARAMETERS);
        if (parsed.isEmpty()) {
            return new Match(0, -1);
        }
        Entry wanted = parsed.get(0);
        boolean mediaType = wanted.value().indexOf('/') >= 0;
        Ranked best = null;
        for (Ranked ranked : received) {
            if (matches(ranked.entry, wanted, mediaType) && (best == null || ranked.specificity > best.specificity)) {
                best = ranked;
            }
        }
        if (best != null) {
            return new Match(best.entry.quality(), best.specificity);
        }
        return new Match(!mediaType && wanted.value().equalsIgnoreCase(IDENTITY) ? UNMENTIONED_IDENTITY_QUALITY : 0, -1);
    }

    private static boolean matches(Entry entry, Entry wanted, boolean mediaType) {
        String range = entry.value();
        String value = wanted.value();
        boolean valueMatches;
        if (range.equals("*") || mediaType && range.equals("*/*")) {
            valueMatches = true;
        } else if (mediaType && range.endsWith("/*")) {
            int slash = range.length() - 2;
            valueMatches = value.length() > slash && value.charAt(slash) == '/'
                    && value.regionMatches(true, 0, range, 0, slash);
        } else {
            valueMatches = range.equalsIgnoreCase(value);
        }
        return valueMatches && hasParameters(wanted.parameters(), entry.parameters());
    }

    private static boolean hasParameters(List<Parameter> candidate, List<Parameter> required) {
        for (Parameter parameter : required) {
            boolean found = false;
            for (Parameter offered : candidate) {
                if (offered.name().equals(parameter.name()) && offered.value().equalsIgnoreCase(parameter.value())) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    /** @return how specific an element is: its wildcard level in the high bits, its parameter count below */
    private static int specificity(String value, int parameters) {
        int level;
        if (value.equals("*") || value.equals("*/*")) {
            level = 0;
        } else if (value.endsWith("/*")) {
            level = 1;
        } else {
            level = 2;
        }
        return level << 16 | Math.min(parameters, 0xFFFF);
    }

    @Override
    public String toString() {
        return absent ? "QualityList[absent]" : "QualityList" + entries;
    }

    /**
     * One parameter of an element other than its weight.
     *
     * @param name the name in lower case
     * @param value the value, unquoted when it was a quoted string; empty when there was no {@code =}
     */
    public record Parameter(String name, String value) {

        public Parameter {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * One element of the list.
     *
     * @param value the media range or token as received, without parameters
     * @param parameters the parameters other than the weight, in order, at most the bound given
     * @param quality the weight in thousandths, 0 (refused) to {@link #MAX_QUALITY}
     */
    public record Entry(String value, List<Parameter> parameters, int quality) {

        public Entry {
            Objects.requireNonNull(value, "value");
            parameters = List.copyOf(parameters);
            if (quality < 0 || quality > MAX_QUALITY) {
                throw new IllegalArgumentException("quality must be 0 to 1000, not " + quality);
            }
        }

        /** @return whether the client refuses this value, {@code q=0} */
        public boolean isRefused() {
            return quality == 0;
        }
    }

    private record Ranked(Entry entry, int specificity, int received) {
    }

    private record Match(int quality, int specificity) {
    }
}
