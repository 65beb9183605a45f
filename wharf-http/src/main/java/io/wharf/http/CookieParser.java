package io.wharf.http;

import java.util.ArrayList;
import java.util.List;

import io.wharf.http.CookieCompliance.Violation;
import io.wharf.http.internal.CookieScanner;
import io.wharf.http.internal.CookieSyntax;

/**
 * Turns the {@code Cookie} headers of a request into {@link HttpCookie}s, in order, under a
 * {@link CookieCompliance} mode. One parser serves one connection: the thread that handles the
 * connection's requests calls {@link #parse}; it is not thread-safe. It reads Strings and holds
 * no buffers.
 *
 * <p>Peer input does not throw in the named modes. A pair the mode does not accept is dropped
 * and reported to the listener as {@link Violation#INVALID_COOKIES}; every departure the mode
 * allowed in a kept pair is reported under its own violation, with the pair's text escaped and
 * cut short. Cookies after the first {@code maxCookies} are dropped and reported once as
 * {@code INVALID_COOKIES}; the scan stops there, so a huge header costs no more than its first
 * {@code maxCookies} pairs. At most {@code maxReports} violations are reported per call, so a
 * header of a hundred thousand broken pairs costs a scan, not a hundred thousand log lines.
 * Only a custom mode without {@code INVALID_COOKIES} throws: a
 * {@link BadMessageException} 400 at the first pair it would have dropped.
 *
 * <p>RFC 2965 attributes ({@code $Version}, {@code $Path}, {@code $Domain}, {@code $Port}, any
 * ASCII case) are ordinary cookies unless the mode allows {@link Violation#ATTRIBUTES}; then
 * they are no cookies, and with {@link Violation#ATTRIBUTE_VALUES} {@code $Version} applies to
 * the cookies after it and {@code $Path}/{@code $Domain} to the cookie before it.
 *
 * <p>When a request repeats the previous request's {@code Cookie} values (browsers send the
 * same line again and again), {@link #parse} returns the previous list and reports the
 * previous violations again, without parsing.
 */
public final class CookieParser {

    /** The default for {@code maxCookies}. */
    public static final int DEFAULT_MAX_COOKIES = 100;
    /** The default for {@code maxReports}. */
    public static final int DEFAULT_MAX_REPORTS = 100;

    private final CookieCompliance mode;
    private final ComplianceViolation.Listener listener;
    private final int maxCookies;
    private final int maxReports;
    private final boolean attributes;
    private final boolean attributeValues;
    private final CookieScanner scanner;
    private List<String> lastHeaders = List.of();
    private List<HttpCookie> lastCookies = List.of();
    private List<Report> lastReports = List.of();

    /** A parser in {@link CookieCompliance#RFC6265} that reports nothing and keeps at most 100 cookies. */
    public CookieParser() {
        this(CookieCompliance.RFC6265, ComplianceViolation.Listener.NONE, DEFAULT_MAX_COOKIES);
    }

    /**
     * A parser that reports at most {@value #DEFAULT_MAX_REPORTS} violations per call.
     *
     * @param mode the departures from RFC 6265 to accept
     * @param listener told about each one, on the parsing thread
     * @param maxCookies how many cookies a request keeps, at least 1
     */
    public CookieParser(CookieCompliance mode, ComplianceViolation.Listener listener, int maxCookies) {
        this(mode, listener, maxCookies, DEFAULT_MAX_REPORTS);
    }

    /**
     * @param mode the departures from RFC 6265 to accept
     * @param listener told about each one, on the parsing thread
     * @param maxCookies how many cookies a request keeps, at least 1
     * @param maxReports how many violations one {@link #parse} call reports at most, 0 or more
     */
    public CookieParser(CookieCompliance mode, ComplianceViolation.Listener listener, int maxCookies, int maxReports) {
        if (mode == null || listener == null) {
            throw new IllegalArgumentException("cookie parser needs a mode and a listener");
        }
        if (maxCookies < 1) {
            throw new IllegalArgumentException("max cookies must be at least 1, not " + maxCookies);
        }
        if (maxReports < 0) {
            throw new IllegalArgumentException("max reports must not be negative: " + maxReports);
        }
        this.mode = mode;
        this.listener = listener;
        this.maxCookies = maxCookies;
        this.maxReports = maxReports;
        this.attributes = mode.allows(Violation.ATTRIBUTES);
        this.attributeValues = mode.allows(Violation.ATTRIBUTE_VALUES);
        this.scanner = new CookieScanner(mode.getAllowed());
    }

    /** @return the cookies of every {@code Cookie} field of {@code fields}, in order */
    public List<HttpCookie> parse(HttpFields fields) {
        return parse(fields.getValuesList(HttpHeader.COOKIE));
    }

    /**
     * @param cookieHeaderValues the values of the request's {@code Cookie} fields, in order
     * @return the cookies, in order, unmodifiable
     * @throws BadMessageException 400 only when the mode does not allow
     *     {@link Violation#INVALID_COOKIES} and a pair is invalid
     */
    public List<HttpCookie> parse(List<String> cookieHeaderValues) {
        if (sameAsLast(cookieHeaderValues)) {
            for (Report report : lastReports) {
                listener.onComplianceViolation(mode, report.violation(), report.details());
            }
            return lastCookies;
        }
        Assembly assembly = new Assembly();
        for (String header : cookieHeaderValues) {
            if (!scanner.scan(header, assembly)) {
                break;
            }
            assembly.endHeader();
        }
        assembly.endHeader();
        lastHeaders = List.copyOf(cookieHeaderValues);
        lastCookies = List.copyOf(assembly.cookies);
        lastReports = List.copyOf(assembly.reports);
        return lastCookies;
    }

    private boolean sameAsLast(List<String> headers) {
        if (headers.size() != lastHeaders.size() || headers.isEmpty()) {
            return false;
        }
        for (int i = 0; i < headers.size(); i++) {
            String header = headers.get(i);
            String last = lastHeaders.get(i);
            if (header != last && !header.equals(last)) {
                return false;
            }
        }
        return true;
    }

    /** One violation told to the listener, kept to tell it again when the same headers repeat. */
    private record Report(Violation violation, String details) {
    }

    /** The cookie being read, which a following {@code $Path} or {@code $Domain} may still change. */
    private record Pending(String name, String value, int version, String path, String domain) {

        HttpCookie cookie() {
            return HttpCookie.parsed(name, value, version, path, domain);
        }
    }

    /** Collects the pairs of one {@link #parse} call into cookies. */
    private final class Assembly implements CookieScanner.Sink {

        private final List<HttpCookie> cookies = new ArrayList<>();
        private final List<Report> reports = new ArrayList<>(0);
        private Pending pending;
        private int count;
        private int version;

        @Override
        public boolean cookie(String name, String value, int violations, String header, int start, int end) {
            Attribute attribute = attributes ? Attribute.of(name) : Attribute.NONE;
            if (attribute != Attribute.NONE) {
                violations |= 1 << Violation.ATTRIBUTES.ordinal();
                if (attributeValues && apply(attribute, value)) {
                    violations |= 1 << Violation.ATTRIBUTE_VALUES.ordinal();
                }
                reportAll(violations, header, start, end);
                return true;
            }
            if (count == maxCookies) {
                dropped("more than " + maxCookies + " cookies",
                        "more than " + maxCookies + " cookies; this one and those after it were dropped: ", header, start, end);
                return false;
            }
            count++;
            reportAll(violations, header, start, end);
            endCookie();
            pending = new Pending(name, value, version, null, null);
            return true;
        }

        @Override
        public boolean invalid(String reason, String header, int start, int end) {
            dropped(reason, reason + ": ", header, start, end);
            return true;
        }

        /** @return whether the attribute changed a cookie */
        private boolean apply(Attribute attribute, String value) {
            switch (attribute) {
                case VERSION -> {
                    version = parseVersion(value);
                    return true;
                }
                case PATH -> {
                    if (pending != null) {
                        pending = new Pending(pending.name(), pending.value(), pending.version(), value, pending.domain());
                        return true;
                    }
                    return false;
                }
                case DOMAIN -> {
                    if (pending != null) {
                        pending = new Pending(pending.name(), pending.value(), pending.version(), pending.path(), value);
                        return true;
                    }
                    return false;
                }
                default -> {
                    return false;
                }
            }
        }

        /** Attributes apply within one header: a {@code $Path} in the next header finds no cookie. */
        void endHeader() {
            endCookie();
        }

        private void endCookie() {
            if (pending != null) {
                cookies.add(pending.cookie());
                pending = null;
            }
        }

        private void dropped(String reason, String prefix, String header, int start, int end) {
            if (!mode.allows(Violation.INVALID_COOKIES)) {
                throw new BadMessageException(HttpStatus.BAD_REQUEST_400, "invalid cookie: " + reason);
            }
            if (reports.size() < maxReports) {
                report(Violation.INVALID_COOKIES, prefix + CookieSyntax.quote(header.subSequence(start, end)));
            }
        }

        private void reportAll(int violations, String header, int start, int end) {
            if (violations == 0 || reports.size() >= maxReports) {
                return;
            }
            String details = CookieSyntax.quote(header.subSequence(start, end));
            for (Violation violation : Violation.values()) {
                if (CookieScanner.has(violations, violation) && reports.size() < maxReports) {
                    report(violation, details);
                }
            }
        }

        private void report(Violation violation, String details) {
            reports.add(new Report(violation, details));
            listener.onComplianceViolation(mode, violation, details);
        }
    }

    /** @return the version a {@code $Version} value names: its decimal digits, optionally quoted; 0 if none */
    private static int parseVersion(String value) {
        int from = 0;
        int to = value.length();
        if (to >= 2 && value.charAt(0) == '"' && value.charAt(to - 1) == '"') {
            from++;
            to--;
        }
        if (to == from || to - from > 9) {
            return 0;
        }
        int version = 0;
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return 0;
            }
            version = version * 10 + (c - '0');
        }
        return version;
    }

    /** The RFC 2965 attributes a {@code Cookie} header may carry. */
    private enum Attribute {
        NONE, VERSION, PATH, DOMAIN, PORT;

        static Attribute of(String name) {
            if (name.isEmpty() || name.charAt(0) != '$') {
                return NONE;
            }
            if (name.equalsIgnoreCase("$Version")) {
                return VERSION;
            }
            if (name.equalsIgnoreCase("$Path")) {
                return PATH;
            }
            if (name.equalsIgnoreCase("$Domain")) {
                return DOMAIN;
            }
            return name.equalsIgnoreCase("$Port") ? PORT : NONE;
        }
    }
}
