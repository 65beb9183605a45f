package io.wharf.http;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A named compliance mode of the HTTP/1 parser: the set of {@link Violation}s of RFC 9112 it
 * lets through. {@link #RFC9112} (the default) allows none; {@link #RFC7230} allows the two
 * relaxations both RFCs call optional; {@link #LEGACY} allows every one, for old clients a
 * deployment must keep serving. Each allowed violation is still reported to the parser's
 * {@link ComplianceViolation.Listener}, so it can be logged or counted.
 *
 * <p>Immutable and shared by every parser of a connector; read on the parsing thread. A mode
 * is made from a name with {@link #from(String)}, which also takes adjustments
 * ({@code "RFC9112,+LF_HEADER_TERMINATION"}, {@code "LEGACY,-DUPLICATE_HOST_HEADERS"}).
 */
public final class HttpCompliance extends NamedComplianceMode<HttpCompliance.Violation> {

    /** The departures from RFC 9112 the HTTP/1 parser can be told to allow. */
    public enum Violation implements ComplianceViolation {
        /**
         * A method token in another case than its definition, such as {@code get}; allowed, it
         * is taken as {@code GET}; otherwise it is the distinct, case-sensitive method {@code get}.
         */
        CASE_INSENSITIVE_METHOD("RFC 9110 section 9.1", "the method token is case-sensitive"),
        /** A request line with no version, {@code GET /path}; allowed, it is a request with no fields and no content. */
        HTTP_0_9("RFC 9112 appendix C.1", "an HTTP/0.9 request line, with no version"),
        /** A field line that starts with a blank, continuing the previous one; allowed, it is joined with one space. */
        MULTILINE_FIELD_VALUE("RFC 9112 section 5.2", "a field value folded over several lines (obs-fold)"),
        /** {@code Content-Length} more than once (or as a list) with the same number; allowed, the number is used once. */
        MULTIPLE_CONTENT_LENGTHS("RFC 9110 section 8.6", "the same Content-Length given more than once"),
        /** Both {@code Transfer-Encoding} and {@code Content-Length}; allowed, Transfer-Encoding decides the framing. */
        TRANSFER_ENCODING_WITH_CONTENT_LENGTH("RFC 9112 section 6.3", "both Transfer-Encoding and Content-Length"),
        /** Blanks between a field name and its colon; allowed, they are ignored. */
        WHITESPACE_AFTER_FIELD_NAME("RFC 9112 section 5.1", "whitespace between a field name and its colon"),
        /** A field line without a colon; allowed, it is a field with an empty value. */
        NO_COLON_AFTER_FIELD_NAME("RFC 9112 section 5", "a field line without a colon"),
        /** More than one {@code Host} field; allowed, each is passed on. */
        DUPLICATE_HOST_HEADERS("RFC 9112 section 3.2", "more than one Host field"),
        /** A start line or field line ended by a bare LF instead of CR LF. */
        LF_HEADER_TERMINATION("RFC 9112 section 2.2", "a start or field line ended by a bare LF"),
        /** A chunk-size line or the end of chunk data marked by a bare LF instead of CR LF. */
        LF_CHUNK_TERMINATION("RFC 9112 section 7.1", "a chunk line ended by a bare LF");

        private final String standard;
        private final String description;

        Violation(String standard, String description) {
            this.standard = standard;
            this.description = description;
        }

        @Override
        public String getStandard() {
            return standard;
        }

        @Override
        public String getDescription() {
            return description;
        }
    }

    /** Strict RFC 9112: no violation allowed. The default. */
    public static final HttpCompliance RFC9112 = new HttpCompliance("RFC9112", EnumSet.noneOf(Violation.class));

    /**
     * RFC 7230 as commonly deployed: also accepts bare LF line endings in the head and a
     * repeated identical {@code Content-Length}, both of which the RFCs let a recipient accept.
     */
    public static final HttpCompliance RFC7230 = new HttpCompliance("RFC7230",
            EnumSet.of(Violation.LF_HEADER_TERMINATION, Violation.MULTIPLE_CONTENT_LENGTHS));

    /** Every violation allowed (and reported): for old clients only, never the default. */
    public static final HttpCompliance LEGACY = new HttpCompliance("LEGACY", EnumSet.allOf(Violation.class));

    private HttpCompliance(String name, Set<Violation> allowed) {
        super(name, Violation.class, allowed);
    }

    /**
     * @return a mode named {@code name} that allows exactly {@code allowed}
     * @throws IllegalArgumentException when the name is blank
     */
    public static HttpCompliance of(String name, Set<Violation> allowed) {
        Objects.requireNonNull(allowed, "allowed");
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a compliance mode needs a name");
        }
        return new HttpCompliance(name, allowed);
    }

    /**
     * Parses a mode: the name of a named mode, optionally followed by comma-separated
     * adjustments, each {@code +VIOLATION} (also allow) or {@code -VIOLATION} (no longer
     * allow), e.g. {@code "RFC9112,+MULTILINE_FIELD_VALUE"}. Names ignore case.
     *
     * @throws IllegalArgumentException naming the unknown mode or violation
     */
    public static HttpCompliance from(String spec) {
        Objects.requireNonNull(spec, "spec");
        String[] parts = spec.split(",");
        String baseName = parts[0].strip().toUpperCase(Locale.ROOT);
        HttpCompliance base = switch (baseName) {
            case "RFC9112" -> RFC9112;
            case "RFC7230" -> RFC7230;
            case "LEGACY" -> LEGACY;
            default -> throw new IllegalArgumentException("unknown HTTP compliance mode '" + parts[0].strip() +
                    "'; known: RFC9112, RFC7230, LEGACY");
        };
        if (parts.length == 1) {
            return base;
        }
        EnumSet<Violation> allowed = adjust(base.getAllowed(), Violation.class, parts,
                name -> violationNamed(name.strip()),
                adjustment -> new IllegalArgumentException("HTTP compliance adjustment '" + adjustment +
                        "' must be +VIOLATION or -VIOLATION"));
        return new HttpCompliance(spec.strip(), allowed);
    }

    private static Violation violationNamed(String name) {
        for (Violation violation : Violation.values()) {
            if (violation.name().equalsIgnoreCase(name)) {
                return violation;
            }
        }
        throw new IllegalArgumentException("unknown HTTP compliance violation '" + name + "'");
    }

    @Override
    public String toString() {
        return "HttpCompliance[" + getName() + ", allowed=" + getAllowed() + "]";
    }
}
