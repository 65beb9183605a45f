package io.wharf.http;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.wharf.http.internal.CookieSyntax;
import io.wharf.http.internal.ImfFixdate;
import io.wharf.http.internal.SetCookieIdentity;

/**
 * One HTTP cookie (RFC 6265): a name, a value and the attributes a server sends with it in a
 * {@code Set-Cookie} header — {@code Domain}, {@code Path}, {@code Max-Age}, {@code Expires},
 * {@code Secure}, {@code HttpOnly}, {@code SameSite}, {@code Partitioned} — plus the RFC 2965
 * legacy {@code Version} and {@code Comment} and any other attribute, kept in the order given.
 *
 * <p>Application code builds one on any thread with {@link #build(String, String)} and writes
 * it with {@link #asSetCookieValue()}; a {@link CookieParser} makes them from {@code Cookie}
 * headers on the thread that parses. Immutable and safe to share; it holds no buffers.
 *
 * <p>A built cookie is valid by construction: its name is an RFC 9110 token, its value RFC 6265
 * cookie-octets optionally wrapped in one pair of double quotes (the quotes are part of the
 * value), its attribute values free of control characters and semicolons; the builder throws an
 * {@link IllegalArgumentException} naming the first illegal character. A cookie parsed in a
 * legacy {@link CookieCompliance} mode may hold a value the builder would refuse (a space, a
 * comma): the mode allowed it and reported it.
 *
 * <p>Two cookies are equal when they are the same cookie to a browser: same name, same domain
 * (ignoring ASCII case) and same path. Values and other attributes do not take part.
 */
public final class HttpCookie {

    /** The {@code SameSite} attribute (RFC 6265bis section 5.4.7). */
    public enum SameSite {
        /** Sent on every request, also cross-site; browsers require {@code Secure} with it. */
        NONE("None"),
        /** Sent on same-site requests and on top-level cross-site navigations. */
        LAX("Lax"),
        /** Sent on same-site requests only. */
        STRICT("Strict");

        private final String attributeValue;

        SameSite(String attributeValue) {
            this.attributeValue = attributeValue;
        }

        /** @return the spelling in a {@code Set-Cookie} header: {@code None}, {@code Lax} or {@code Strict} */
        public String attributeValue() {
            return attributeValue;
        }

        /**
         * @param value {@code None}, {@code Lax} or {@code Strict} in any ASCII case
         * @throws IllegalArgumentException when it is none of them
         */
        public static SameSite from(String value) {
            for (SameSite sameSite : values()) {
                if (sameSite.attributeValue.equalsIgnoreCase(value)) {
                    return sameSite;
                }
            }
            throw new IllegalArgumentException("SameSite " + CookieSyntax.quote(value) + " is not None, Lax or Strict");
        }
    }

    private final String name;
    private final String value;
    private final String domain;
    private final String path;
    private final long maxAge;
    private final Instant expires;
    private final boolean secure;
    private final boolean httpOnly;
    private final SameSite sameSite;
    private final boolean partitioned;
    private final int version;
    private final String comment;
    private final Map<String, String> attributes;
    /** Whether it came from a {@code Cookie} header unchecked, rather than from the builder. */
    private final boolean parsed;

    private HttpCookie(Builder builder) {
        this.name = builder.name;
        this.value = builder.value;
        this.domain = builder.domain;
        this.path = builder.path;
        this.maxAge = builder.maxAge;
        this.expires = builder.expires;
        this.secure = builder.secure;
        this.httpOnly = builder.httpOnly;
        this.sameSite = builder.sameSite;
        this.partitioned = builder.partitioned;
        this.version = builder.version;
        this.comment = builder.comment;
        this.parsed = builder.parsed;
        this.attributes = builder.attributes.isEmpty()
                ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(builder.attributes));
    }

    /**
     * @return a builder for a cookie with this name and value
     * @throws IllegalArgumentException when the name is not a token or the value not cookie-octets
     */
    public static Builder build(String name, String value) {
        return new Builder(name, value);
    }

    /** @return a builder that starts as a copy of {@code cookie} */
    public static Builder build(HttpCookie cookie) {
        return new Builder(cookie);
    }

    /**
     * @return a cookie with this name and value and no attributes
     * @throws IllegalArgumentException when the name is not a token or the value not cookie-octets
     */
    public static HttpCookie from(String name, String value) {
        return new Builder(name, value).build();
    }

    /**
     * A cookie read from a {@code Cookie} header, not validated again: the parser and its mode
     * decided what is acceptable. Path and domain come from RFC 2965 attributes, or are null.
     */
    static HttpCookie parsed(String name, String value, int version, String path, String domain) {
        Builder builder = new Builder();
        builder.parsed = true;
        builder.name = name;
        builder.value = value;
        builder.version = version;
        builder.path = path;
        builder.domain = domain;
        return new HttpCookie(builder);
    }

    /** @return the name, a token */
    public String getName() {
        return name;
    }

    /** @return the value, possibly empty, with its double quotes if it was quoted */
    public String getValue() {
        return value;
    }

    /** @return the {@code Domain} attribute, or null when there is none */
    public String getDomain() {
        return domain;
    }

    /** @return the {@code Path} attribute, or null when there is none */
    public String getPath() {
        return path;
    }

    /** @return the {@code Max-Age} in seconds, 0 to delete the cookie, or -1 when there is none */
    public long getMaxAge() {
        return maxAge;
    }

    /**
     * @return the {@code Expires} attribute as set, or null when none was set (a {@code Set-Cookie}
     *     header may still carry one derived from {@link #getMaxAge()})
     */
    public Instant getExpires() {
        return expires;
    }

    /** @return whether the cookie is sent over secure channels only */
    public boolean isSecure() {
        return secure;
    }

    /** @return whether scripts in the browser cannot read the cookie */
    public boolean isHttpOnly() {
        return httpOnly;
    }

    /** @return the {@code SameSite} attribute, or null when there is none */
    public SameSite getSameSite() {
        return sameSite;
    }

    /** @return whether the cookie is kept in a storage partitioned by top-level site (CHIPS) */
    public boolean isPartitioned() {
        return partitioned;
    }

    /** @return the RFC 2965 version: 0 for RFC 6265 cookies, 1 when an RFC 2965 peer said so */
    public int getVersion() {
        return version;
    }

    /** @return the RFC 2965 {@code Comment}, or null when there is none */
    public String getComment() {
        return comment;
    }

    /**
     * @return the other attributes in the order they were set, name to value; a null value is
     *     an attribute without {@code =}
     */
    public Map<String, String> getAttributes() {
        return attributes;
    }

    /**
     * @return the value of a {@code Set-Cookie} header for this cookie, attributes in the order
     *     Domain, Path, Expires, Max-Age, Secure, HttpOnly, SameSite, Partitioned, Comment,
     *     Version, then the others; when only {@code Max-Age} is set, {@code Expires} is derived
     *     from it and the current time for browsers that ignore {@code Max-Age}
     */
    public String asSetCookieValue() {
        return asSetCookieValue(Instant.now());
    }

    /**
     * @param now the time {@code Expires} is derived from when only {@code Max-Age} is set
     * @return the value of a {@code Set-Cookie} header, as {@link #asSetCookieValue()}
     * @throws IllegalArgumentException naming the first illegal character, for a cookie parsed
     *     in a legacy {@link CookieCompliance} mode whose name, value, path or domain no
     *     {@code Set-Cookie} may carry (a space or a comma in the value, for instance)
     */
    public String asSetCookieValue(Instant now) {
        if (parsed) {
            CookieSyntax.requireName(name);
            CookieSyntax.requireValue(name, value);
            if (path != null) {
                CookieSyntax.requireAttributeValue("cookie path of " + CookieSyntax.quote(name), path);
            }
            if (domain != null) {
                CookieSyntax.requireDomain(name, domain);
            }
        }
        return write(now);
    }

    /**
     * Tells whether a {@code Set-Cookie} value sets this same cookie to a browser: the same
     * name, the same domain (ignoring ASCII case and a leading dot, which browsers drop) and the
     * same path. The value is read as a user agent reads it (RFC 6265 section 5.2): blanks
     * ignored, attribute names in any case, the last {@code Domain} and {@code Path} winning, a
     * path not starting with {@code /} counting as none; a value without {@code =} in its first
     * pair sets no cookie. {@code Response.replaceCookie} uses it to find what a cookie replaces.
     *
     * @param setCookieValue the value of one {@code Set-Cookie} field
     * @return whether it sets the cookie this one is
     */
    public boolean isSameCookieAs(String setCookieValue) {
        SetCookieIdentity other = SetCookieIdentity.read(setCookieValue);
        return other != null && other.name().equals(name) && sameDomain(domain, other.domain())
                && Objects.equals(path, other.path());
    }

    private static boolean sameDomain(String one, String other) {
        if (one == null || other == null) {
            return one == other;
        }
        return withoutLeadingDot(one).equalsIgnoreCase(withoutLeadingDot(other));
    }

    private static String withoutLeadingDot(String domain) {
        return domain.startsWith(".") ? domain.substring(1) : domain;
    }

    /** @return a {@code Set-Cookie} field carrying {@link #asSetCookieValue()} */
    public HttpField asSetCookieField() {
        return new HttpField(HttpHeader.SET_COOKIE, asSetCookieValue());
    }

    /** @param now null to leave out an {@code Expires} derived from {@code Max-Age} */
    private String write(Instant now) {
        StringBuilder text = new StringBuilder(64).append(name).append('=').append(value);
        if (domain != null) {
            text.append("; Domain=").append(domain);
        }
        if (path != null) {
            text.append("; Path=").append(path);
        }
        Instant expiry = expires != null || now == null ? expires : expiryFromMaxAge(now);
        if (expiry != null) {
            text.append("; Expires=").append(ImfFixdate.format(expiry));
        }
        if (maxAge >= 0) {
            text.append("; Max-Age=").append(maxAge);
        }
        if (secure) {
            text.append("; Secure");
        }
        if (httpOnly) {
            text.append("; HttpOnly");
        }
        if (sameSite != null) {
            text.append("; SameSite=").append(sameSite.attributeValue());
        }
        if (partitioned) {
            text.append("; Partitioned");
        }
        if (comment != null) {
            text.append("; Comment=").append(comment);
        }
        if (version > 0) {
            text.append("; Version=").append(version);
        }
        attributes.forEach((attribute, attributeValue) -> {
            text.append("; ").append(attribute);
            if (attributeValue != null) {
                text.append('=').append(attributeValue);
            }
        });
        return text.toString();
    }

    /** @return the expiry {@code Max-Age} means at {@code now}, clamped to year 9999, or null */
    private Instant expiryFromMaxAge(Instant now) {
        if (maxAge < 0) {
            return null;
        }
        if (maxAge == 0) {
            return Instant.EPOCH;
        }
        long room = ImfFixdate.MAX.getEpochSecond() - now.getEpochSecond();
        return maxAge >= room ? ImfFixdate.MAX : Instant.ofEpochSecond(now.getEpochSecond() + maxAge);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HttpCookie cookie
                && name.equals(cookie.name)
                && (domain == null ? cookie.domain == null : domain.equalsIgnoreCase(cookie.domain))
                && Objects.equals(path, cookie.path);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, domain == null ? null : domain.toLowerCase(Locale.ROOT), path);
    }

    /** @return the {@code Set-Cookie} form without a derived {@code Expires}, for logs */
    @Override
    public String toString() {
        return "HttpCookie[" + write(null) + "]";
    }

    /**
     * Collects the parts of an {@link HttpCookie}. Each setter checks its argument at once and
     * throws an {@link IllegalArgumentException} naming the problem; {@link #build()} checks the
     * combination. Used by one thread at a time; not safe to share.
     */
    public static final class Builder {

        private String name;
        private String value;
        private String domain;
        private String path;
        private long maxAge = -1;
        private Instant expires;
        private boolean secure;
        private boolean httpOnly;
        private SameSite sameSite;
        private boolean partitioned;
        private int version;
        private String comment;
        private final Map<String, String> attributes = new LinkedHashMap<>();
        private boolean parsed;

        private Builder() {
        }

        private Builder(String name, String value) {
            CookieSyntax.requireName(name);
            CookieSyntax.requireValue(name, value);
            this.name = name;
            this.value = value;
        }

        private Builder(HttpCookie cookie) {
            name = cookie.name;
            value = cookie.value;
            domain = cookie.domain;
            path = cookie.path;
            maxAge = cookie.maxAge;
            expires = cookie.expires;
            secure = cookie.secure;
            httpOnly = cookie.httpOnly;
            sameSite = cookie.sameSite;
            partitioned = cookie.partitioned;
            version = cookie.version;
            comment = cookie.comment;
            parsed = cookie.parsed;
            attributes.putAll(cookie.attributes);
        }

        /** @param domain the hosts that receive the cookie, or null for the origin host only */
        public Builder domain(String domain) {
            if (domain != null) {
                CookieSyntax.requireDomain(name, domain);
            }
            this.domain = domain;
            return this;
        }

        /** @param path the path prefix that receives the cookie, or null for none */
        public Builder path(String path) {
            if (path != null) {
                CookieSyntax.requireAttributeValue("cookie path of " + CookieSyntax.quote(name), path);
            }
            this.path = path;
            return this;
        }

        /** @param seconds how long the browser keeps the cookie: 0 deletes it, -1 means no {@code Max-Age} */
        public Builder maxAge(long seconds) {
            if (seconds < -1) {
                throw new IllegalArgumentException("cookie max-age of " + CookieSyntax.quote(name) + " is " + seconds
                        + "; use 0 to delete the cookie or -1 for none");
            }
            this.maxAge = seconds;
            return this;
        }

        /** @param expires when the browser drops the cookie, between years 1 and 9999; null for none */
        public Builder expires(Instant expires) {
            if (expires != null && (expires.isBefore(ImfFixdate.MIN) || expires.isAfter(ImfFixdate.MAX))) {
                throw new IllegalArgumentException("cookie expires of " + CookieSyntax.quote(name) + " is " + expires
                        + ", outside the years 0001 to 9999 an HTTP date can hold");
            }
            this.expires = expires;
            return this;
        }

        /** @param secure whether the browser sends the cookie over secure channels only */
        public Builder secure(boolean secure) {
            this.secure = secure;
            return this;
        }

        /** @param httpOnly whether scripts in the browser cannot read the cookie */
        public Builder httpOnly(boolean httpOnly) {
            this.httpOnly = httpOnly;
            return this;
        }

        /**
         * @param sameSite the same-site policy, or null for none; browsers ignore a cookie with
         *     {@link SameSite#NONE} that is not also {@link #secure(boolean) Secure}, but the
         *     builder does not refuse it
         */
        public Builder sameSite(SameSite sameSite) {
            this.sameSite = sameSite;
            return this;
        }

        /** @param partitioned whether to keep the cookie per top-level site; requires {@code Secure} */
        public Builder partitioned(boolean partitioned) {
            this.partitioned = partitioned;
            return this;
        }

        /** @param version the RFC 2965 version, 0 (the default) for none */
        public Builder version(int version) {
            if (version < 0) {
                throw new IllegalArgumentException("cookie version of " + CookieSyntax.quote(name) + " is negative: " + version);
            }
            this.version = version;
            return this;
        }

        /** @param comment the RFC 2965 comment, or null for none */
        public Builder comment(String comment) {
            if (comment != null) {
                CookieSyntax.requireAttributeValue("cookie comment of " + CookieSyntax.quote(name), comment);
            }
            this.comment = comment;
            return this;
        }

        /**
         * Sets an attribute by name. A name Wharf knows ({@code Domain}, {@code Path},
         * {@code Max-Age}, {@code Expires} as an HTTP date, {@code Secure}, {@code HttpOnly},
         * {@code SameSite}, {@code Partitioned}, {@code Version}, {@code Comment}, in any ASCII
         * case) goes to its setter; a flag takes null, empty or {@code true} to set it and
         * {@code false} to clear it. Any other name is kept in order, replacing an attribute of
         * the same name in any case.
         *
         * @param value the value, or null for an attribute without {@code =}
         */
        public Builder attribute(String name, String value) {
            CookieSyntax.requireAttributeName(name);
            switch (name.toLowerCase(Locale.ROOT)) {
                case "domain" -> domain(value);
                case "path" -> path(value);
                case "max-age" -> maxAge(number(name, value));
                case "expires" -> expires(value == null ? null : date(value));
                case "secure" -> secure(flag(name, value));
                case "httponly" -> httpOnly(flag(name, value));
                case "samesite" -> sameSite(value == null ? null : SameSite.from(value));
                case "partitioned" -> partitioned(flag(name, value));
                case "version" -> version(version(name, value));
                case "comment" -> comment(value);
                default -> other(name, value);
            }
            return this;
        }

        private void other(String attribute, String attributeValue) {
            if (attributeValue != null) {
                CookieSyntax.requireAttributeValue("cookie attribute " + CookieSyntax.quote(attribute) + " of "
                        + CookieSyntax.quote(name), attributeValue);
            }
            attributes.keySet().removeIf(attribute::equalsIgnoreCase);
            attributes.put(attribute, attributeValue);
        }

        private long number(String attribute, String text) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("cookie attribute " + attribute + " of " + CookieSyntax.quote(name)
                        + " is not a number: " + CookieSyntax.quote(text));
            }
        }

        private int version(String attribute, String text) {
            long number = number(attribute, text);
            if (number > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("cookie attribute " + attribute + " of " + CookieSyntax.quote(name)
                        + " is too large: " + number);
            }
            return (int) number;
        }

        private Instant date(String text) {
            try {
                return DateTimeFormatter.RFC_1123_DATE_TIME.parse(text, Instant::from);
            } catch (DateTimeException x) {
                throw new IllegalArgumentException("cookie expires of " + CookieSyntax.quote(name)
                        + " is not an HTTP date: " + CookieSyntax.quote(text));
            }
        }

        private boolean flag(String attribute, String text) {
            if (text == null || text.isEmpty() || text.equalsIgnoreCase("true")) {
                return true;
            }
            if (text.equalsIgnoreCase("false")) {
                return false;
            }
            throw new IllegalArgumentException("cookie attribute " + attribute + " of " + CookieSyntax.quote(name)
                    + " is a flag, not " + CookieSyntax.quote(text));
        }

        /**
         * @return the cookie
         * @throws IllegalArgumentException when it is {@code Partitioned} but not {@code Secure}:
         *     browsers drop such a cookie, so Wharf refuses it rather than send it or add
         *     {@code Secure} behind the caller's back
         */
        public HttpCookie build() {
            if (partitioned && !secure) {
                throw new IllegalArgumentException("cookie " + CookieSyntax.quote(name)
                        + " is Partitioned but not Secure; browsers drop it: set secure(true)");
            }
            return new HttpCookie(this);
        }
    }
}
