package io.wharf.http;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import io.wharf.http.internal.PrintableText;

/**
 * A named set of URI ambiguities a server lets through. {@link HttpURI#parse} notes every
 * {@link Violation} it finds; {@link #check} then rejects the URI with a 400 when this mode
 * does not allow one of them, and tells a listener about each one it does allow.
 *
 * <p>Two things are never allowed, whatever the mode: a NUL character in the path (raw or
 * encoded) and a {@code ".."} that climbs above the root. Such a URI {@link HttpURI#isBad()
 * is bad} and {@code check} always rejects it.
 *
 * <p>Immutable and shared by every connection of a connector; {@code check} runs on the
 * thread that parses the request and touches no buffers.
 */
public final class UriCompliance extends NamedComplianceMode<UriCompliance.Violation> {

    /** One kind of ambiguous, suspicious or malformed URI that a strict server refuses. */
    public enum Violation implements ComplianceViolation {
        /** {@code /%2e/}, {@code /%2e%2e/}, {@code /..;/}, {@code /.;x/}: a dot segment in disguise. */
        AMBIGUOUS_PATH_SEGMENT("RFC 3986 section 3.3", "Ambiguous URI path segment"),
        /** {@code //}: an empty segment, which some mappings collapse and others keep. */
        AMBIGUOUS_EMPTY_SEGMENT("RFC 3986 section 3.3", "Ambiguous URI empty segment"),
        /** {@code %2F}: an encoded {@code '/'}, a separator or not depending on who decodes. */
        AMBIGUOUS_PATH_SEPARATOR("RFC 3986 section 3.3", "Ambiguous URI path separator"),
        /** {@code ;x}: a path parameter, which some mappings strip and others match. */
        AMBIGUOUS_PATH_PARAMETER("RFC 3986 section 3.3", "Ambiguous URI path parameter"),
        /** {@code %25}: an encoded {@code '%'}, which a second decoding would read again. */
        AMBIGUOUS_PATH_ENCODING("RFC 3986 section 2.4", "Ambiguous URI path encoding"),
        /** {@code '\'} raw or as {@code %5C}: a separator on some file systems. */
        SUSPICIOUS_PATH_CHARACTERS("RFC 3986 section 3.3", "Suspicious URI path characters"),
        /** A control character, raw or encoded, or a raw character a path may not hold. */
        ILLEGAL_PATH_CHARACTERS("RFC 3986 section 3.3", "Illegal URI path characters"),
        /** {@code user:pass@} in the authority. */
        USER_INFO("RFC 9110 section 4.2.4", "URI with user info"),
        /** {@code %uXXXX}: a non-standard UTF-16 escape. */
        UTF16_ENCODINGS("RFC 3986 section 2.1", "UTF-16 encoding in URI"),
        /** Percent-encoded bytes that are not well-formed UTF-8, overlong forms included. */
        BAD_UTF8_ENCODING("RFC 3629 section 3", "Bad UTF-8 encoding in URI"),
        /** A {@code '%'} not followed by two hexadecimal digits. */
        BAD_PERCENT_ENCODING("RFC 3986 section 2.1", "Bad percent encoding in URI"),
        /** {@code #f}: a fragment, which a request-target never carries. */
        FRAGMENT("RFC 9112 section 3.2", "Fragment in request target");

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

        /** @return a short description, also the reason of the 400 that rejects it */
        @Override
        public String getDescription() {
            return description;
        }
    }

    /** Strict: allows no violation at all. */
    public static final UriCompliance DEFAULT = new UriCompliance("DEFAULT", EnumSet.noneOf(Violation.class));

    /**
     * For old clients and applications: allows empty segments, path parameters, encoded
     * separators, encoded {@code '%'}, backslashes and fragments, but not disguised dot
     * segments, user info, {@code %u} escapes, control characters or bad encodings.
     */
    public static final UriCompliance LEGACY = new UriCompliance("LEGACY", EnumSet.of(
            Violation.AMBIGUOUS_EMPTY_SEGMENT,
            Violation.AMBIGUOUS_PATH_PARAMETER,
            Violation.AMBIGUOUS_PATH_SEPARATOR,
            Violation.AMBIGUOUS_PATH_ENCODING,
            Violation.SUSPICIOUS_PATH_CHARACTERS,
            Violation.FRAGMENT));

    /** Allows every violation; still never a NUL nor a path above the root. */
    public static final UriCompliance UNSAFE = new UriCompliance("UNSAFE", EnumSet.allOf(Violation.class));

    private static final int DETAILS_LENGTH = 256;

    private UriCompliance(String name, Set<Violation> allowed) {
        super(name, Violation.class, allowed);
    }

    /**
     * @param name the mode's name, for logs and configuration
     * @param allowed the violations it allows
     * @return a mode allowing exactly {@code allowed}
     */
    public static UriCompliance of(String name, Set<Violation> allowed) {
        Objects.requireNonNull(name, "name");
        return new UriCompliance(name, allowed);
    }

    /**
     * Reads a mode from configuration: a base mode ({@code DEFAULT}, {@code LEGACY} or
     * {@code UNSAFE}) followed by comma-separated changes, {@code +NAME} (or a bare
     * {@code NAME}) to allow a violation and {@code -NAME} to refuse it, e.g.
     * {@code "DEFAULT,+USER_INFO,-FRAGMENT"}. Names are read without regard to case.
     *
     * @throws IllegalArgumentException naming an unknown mode or violation
     */
    public static UriCompliance from(String specification) {
        String[] elements = specification.split(",");
        UriCompliance base = base(elements[0].trim());
        if (elements.length == 1) {
            return base;
        }
        EnumSet<Violation> allowed = adjust(base.getAllowed(), Violation.class, elements, UriCompliance::violation, null);
        return new UriCompliance(specification.trim(), allowed);
    }

    private static UriCompliance base(String name) {
        return switch (name.toUpperCase(Locale.ROOT)) {
            case "DEFAULT" -> DEFAULT;
            case "LEGACY" -> LEGACY;
            case "UNSAFE" -> UNSAFE;
            default -> throw new IllegalArgumentException(
                    "unknown URI compliance mode '" + name + "': expected DEFAULT, LEGACY or UNSAFE");
        };
    }

    private static Violation violation(String name) {
        String trimmed = name.trim();
        try {
            return Violation.valueOf(trimmed.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException unknown) {
            throw new IllegalArgumentException("unknown URI compliance violation '" + trimmed + "'", unknown);
        }
    }

    /**
     * Judges a parsed URI: a bad one, or one with a violation this mode does not allow, is
     * rejected; otherwise the listener hears about each allowed violation, in declaration
     * order, with the URI escaped as details.
     *
     * @param uri the URI as parsed
     * @param listener told about every allowed violation; {@link ComplianceViolation.Listener#NONE} to ignore
     * @throws BadMessageException 400 whose reason names the first problem
     */
    public void check(HttpURI uri, ComplianceViolation.Listener listener) {
        if (uri.isBad()) {
            throw new BadMessageException(HttpStatus.BAD_REQUEST_400, uri.badReason());
        }
        Set<Violation> found = uri.getViolations();
        if (found.isEmpty()) {
            return;
        }
        for (Violation violation : found) {
            if (!allows(violation)) {
                throw new BadMessageException(HttpStatus.BAD_REQUEST_400, violation.getDescription());
            }
        }
        String details = PrintableText.escape(uri.asString(), DETAILS_LENGTH);
        for (Violation violation : found) {
            listener.onComplianceViolation(this, violation, details);
        }
    }

    @Override
    public String toString() {
        return "UriCompliance[" + getName() + getAllowed() + "]";
    }
}
