package io.wharf.http;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

import io.wharf.http.internal.CookieSyntax;

/**
 * A named set of departures from RFC 6265 that a {@link CookieParser} accepts in
 * {@code Cookie} headers. {@link #RFC6265} is strict and the default, {@link #RFC6265_LEGACY}
 * takes the sloppiness of real browsers and scripts, {@link #RFC2965} reads the old
 * {@code $Version}/{@code $Path}/{@code $Domain} syntax with commas between cookies.
 *
 * <p>Whatever the mode, a {@code ;} always ends a cookie, even inside double quotes: honouring a
 * quoted {@code ;} would let a value swallow the cookies a browser placed after it (the
 * "cookie smuggling" of CVE-2023-26049). And a double quote inside or at the end of an unquoted
 * value is never accepted, so the tail of a quoted value cut at a {@code ;}
 * ({@code JSESSIONID=evil"}) never becomes a cookie.
 *
 * <p>Immutable and shared; chosen when a connector is configured, read on parsing threads.
 */
public final class CookieCompliance extends NamedComplianceMode<CookieCompliance.Violation> {

    /** What a {@code Cookie} header may do that RFC 6265 section 4.2.1 does not allow. */
    public enum Violation implements ComplianceViolation {
        /** A pair that does not parse, or one too many; allowing it drops the pair, refusing it fails the request. */
        INVALID_COOKIES("RFC 6265 section 4.2.1", "a cookie pair that does not parse was dropped"),
        /** {@code $Version}, {@code $Path}, {@code $Domain} or {@code $Port} taken as attributes, not cookies. */
        ATTRIBUTES("RFC 2965 section 3.3.4", "an RFC 2965 attribute such as $Path was not taken as a cookie"),
        /** The {@code $Version}, {@code $Path} and {@code $Domain} values applied to the cookies. */
        ATTRIBUTE_VALUES("RFC 2965 section 3.3.4", "an RFC 2965 attribute such as $Path was applied to a cookie"),
        /** A comma between two cookies. */
        COMMA_SEPARATOR("RFC 2965 section 3.3.4", "a comma separated two cookies"),
        /** A comma inside an unquoted value. */
        COMMA_NOT_VALID_OCTET("RFC 6265 section 4.1.1", "a comma in a cookie value"),
        /** A backslash escape inside a quoted value. */
        ESCAPE_IN_QUOTES("RFC 2616 section 2.2", "a backslash escape in a quoted cookie value"),
        /** Blanks around {@code =} or before {@code ;}. */
        OPTIONAL_WHITE_SPACE("RFC 6265 section 4.2.1", "white space around '=' or before ';' in a cookie"),
        /** A space or tab inside an unquoted value. */
        SPACE_IN_VALUES("RFC 6265 section 4.1.1", "a space in a cookie value"),
        /** A space, tab, comma or backslash inside a quoted value. */
        SPECIAL_CHARS_IN_QUOTES("RFC 6265 section 4.1.1", "a special character in a quoted cookie value"),
        /** A value that opens a double quote and does not close it, or goes on after closing it. */
        BAD_QUOTES("RFC 6265 section 4.1.1", "unbalanced double quotes in a cookie value"),
        /** A quoted value handed out without its quotes (RFC 6265 makes them part of the value). */
        STRIPPED_QUOTES("RFC 6265 section 5.4", "the double quotes of a cookie value were stripped");

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

    /** Strict RFC 6265, the default: a pair that breaks its grammar is dropped and reported. */
    public static final CookieCompliance RFC6265 = new CookieCompliance("RFC6265",
            EnumSet.of(Violation.INVALID_COOKIES));

    /**
     * RFC 6265 with what browsers and scripts really send: blanks around {@code =}, spaces and
     * commas in values, special characters, escapes and unbalanced quotes in quoted values;
     * RFC 2965 attributes are ignored rather than taken as cookies. Quotes stay in the value.
     */
    public static final CookieCompliance RFC6265_LEGACY = new CookieCompliance("RFC6265_LEGACY",
            EnumSet.of(Violation.INVALID_COOKIES, Violation.ATTRIBUTES, Violation.OPTIONAL_WHITE_SPACE,
                    Violation.SPACE_IN_VALUES, Violation.COMMA_NOT_VALID_OCTET, Violation.SPECIAL_CHARS_IN_QUOTES,
                    Violation.ESCAPE_IN_QUOTES, Violation.BAD_QUOTES));

    /**
     * RFC 2965 (and RFC 2109) peers: {@code $Version}, {@code $Path} and {@code $Domain} applied
     * to the cookies, commas between cookies, quotes stripped and escapes undone; every violation
     * allowed.
     */
    public static final CookieCompliance RFC2965 = new CookieCompliance("RFC2965",
            EnumSet.allOf(Violation.class));

    private static final CookieCompliance[] NAMED = {RFC6265, RFC6265_LEGACY, RFC2965};

    private CookieCompliance(String name, Set<Violation> allowed) {
        super(name, Violation.class, allowed);
    }

    /**
     * @param name the name the mode goes by in logs and violation reports
     * @param allowed the violations it allows
     * @return a custom mode; without {@link Violation#INVALID_COOKIES} a bad pair fails the request
     */
    public static CookieCompliance of(String name, Set<Violation> allowed) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("cookie compliance mode name is empty");
        }
        return new CookieCompliance(name, allowed);
    }

    /**
     * Reads a mode from configuration: a named mode ({@code RFC6265}, {@code RFC6265_LEGACY},
     * {@code RFC2965}, any ASCII case), optionally followed by comma-separated changes
     * {@code +VIOLATION} or {@code -VIOLATION}, e.g. {@code "RFC6265,+SPACE_IN_VALUES"}.
     *
     * @throws IllegalArgumentException naming an unknown mode or violation
     */
    public static CookieCompliance from(String spec) {
        if (spec == null) {
            throw new IllegalArgumentException("cookie compliance mode is null");
        }
        String[] parts = spec.split(",");
        String baseName = parts[0].trim();
        CookieCompliance base = null;
        for (CookieCompliance named : NAMED) {
            if (named.getName().equalsIgnoreCase(baseName)) {
                base = named;
            }
        }
        if (base == null) {
            throw new IllegalArgumentException("unknown cookie compliance mode " + CookieSyntax.quote(baseName)
                    + "; known: RFC6265, RFC6265_LEGACY, RFC2965");
        }
        if (parts.length == 1) {
            return base;
        }
        EnumSet<Violation> allowed = adjust(base.getAllowed(), Violation.class, parts, CookieCompliance::violation,
                change -> new IllegalArgumentException("cookie compliance change " + CookieSyntax.quote(change)
                        + " is not +VIOLATION or -VIOLATION"));
        return new CookieCompliance(spec.trim(), allowed);
    }

    private static Violation violation(String name) {
        try {
            return Violation.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException("unknown cookie compliance violation " + CookieSyntax.quote(name));
        }
    }

    @Override
    public String toString() {
        return getName() + getAllowed();
    }
}
