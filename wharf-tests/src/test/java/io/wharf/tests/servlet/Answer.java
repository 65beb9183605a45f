package io.wharf.tests.servlet;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one container answered to one request, reduced to what the differential suite
 * compares, as named fields in a fixed order: {@code status}, the significant header fields,
 * the header fields the test names, and {@code body}. The reduction takes out what differs
 * without meaning:
 * <ul>
 * <li>Content-Type: lower case, no spaces around {@code ;} and {@code =}, a quoted parameter
 *     value unquoted (RFC 9110 §5.6.6 makes the two forms one);
 * <li>Location: resolved against the request's URI (RFC 9110 §10.2.2), then the peer's
 *     {@code http://127.0.0.1:port} taken off, so that an absolute, a path-absolute and a
 *     relative redirect to the same place read alike;
 * <li>Allow: the set of methods, sorted;
 * <li>Set-Cookie: each cookie as {@code name=value} then its attributes, names in lower
 *     case, sorted, an Expires date as {@code (date)};
 * <li>Content-Length: {@code (body length)} when it is the length of a body that is not empty, so
 *     that bodies of different lengths show as one difference, not two;
 * <li>WWW-Authenticate (when a test names it): each challenge as its scheme in lower case and
 *     its realm, the other parameters (a DIGEST nonce, a charset) left out;
 * <li>ETag (when a test names it): {@code (etag)}, or {@code W/(etag)} for a weak one, since each
 *     container makes its validators its own way (RFC 9110 §8.8.3 leaves their form to the server);
 * <li>fields the test derives ({@link Compared#derived()}), as it derives them;
 * <li>body: the peer's port as {@code {port}}.
 * </ul>
 * The body, Content-Type and Content-Length of an error response read {@code (error page)}
 * unless the test compares them ({@link Compared#errorBodies()}).
 * A field a response lacks reads {@code (none)}.
 */
record Answer(Map<String, String> fields) {

    static final String NONE = "(none)";
    static final String ERROR_PAGE = "(error page)";

    /**
     * @return the fields of {@code response}, which came from the peer at {@code base}
     *     ({@code http://127.0.0.1:port}) for the request {@code target}
     */
    static Answer of(RawResponse response, String base, String target, Compared compared) {
        Map<String, String> fields = new LinkedHashMap<>();
        HeaderFields headers = response.headers();
        fields.put("status", Integer.toString(response.status()));
        if (compared.statusOnly()) {
            return new Answer(fields);
        }
        boolean errorPage = response.status() >= 400 && !compared.errorBodies();
        fields.put("Content-Type", errorPage ? ERROR_PAGE : normalizedContentType(headers.get("Content-Type")));
        String length = headers.get("Content-Length");
        boolean bodyLength = compared.body() && response.body().length > 0 && Integer.toString(response.body().length).equals(length);
        fields.put("Content-Length", errorPage ? ERROR_PAGE : bodyLength ? "(body length)" : orNone(length));
        String location = headers.get("Location");
        fields.put("Location", location == null ? NONE : relative(location, base, target));
        fields.put("Allow", allowed(headers.all("Allow")));
        fields.put("Set-Cookie", cookies(headers.all("Set-Cookie")));
        for (String name : compared.headers()) {
            List<String> values = headers.all(name);
            fields.put(name, values.isEmpty() ? NONE : String.join(" || ", values.stream().map(value -> normalized(name, value)).toList()));
        }
        compared.derived().forEach(field -> fields.put(field.name(), field.value().apply(response)));
        if (compared.body() && errorPage) {
            fields.put("body", ERROR_PAGE);
        } else if (compared.body()) {
            String port = base.substring(base.lastIndexOf(':') + 1);
            fields.put("body", response.bodyText().replaceAll("(?<![0-9])" + Pattern.quote(port) + "(?![0-9])", "{port}"));
        }
        return new Answer(fields);
    }

    /** @return the answer of a peer that gave no response: its status field says why, every other field is absent */
    static Answer failed(Exception failure, Compared compared) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("status", "no response: " + failure);
        if (compared.statusOnly()) {
            return new Answer(fields);
        }
        for (String name : List.of("Content-Type", "Content-Length", "Location", "Allow", "Set-Cookie")) {
            fields.put(name, NONE);
        }
        compared.headers().forEach(name -> fields.put(name, NONE));
        compared.derived().forEach(field -> fields.put(field.name(), NONE));
        if (compared.body()) {
            fields.put("body", "");
        }
        return new Answer(fields);
    }

    private static final Pattern REALM = Pattern.compile("(?i)\\brealm=(\"[^\"]*\"|[^,\\s]*)");

    private static String normalized(String name, String value) {
        if (name.equalsIgnoreCase("ETag")) {
            return value.startsWith("W/") ? "W/(etag)" : "(etag)";
        }
        if (name.equalsIgnoreCase("WWW-Authenticate")) {
            String scheme = value.split("\\s", 2)[0].toLowerCase(Locale.ROOT);
            Matcher realm = REALM.matcher(value);
            return realm.find() ? scheme + " realm=" + realm.group(1) : scheme;
        }
        return value;
    }

    private static String relative(String location, String base, String target) {
        String resolved;
        try {
            resolved = URI.create(target.startsWith("/") ? base + target : base + "/").resolve(location).toString();
        } catch (IllegalArgumentException notAUri) {
            resolved = location;
        }
        return resolved.startsWith(base) ? resolved.substring(base.length()) : resolved;
    }

    private static String orNone(String value) {
        return value == null ? NONE : value;
    }

    private static String normalizedContentType(String value) {
        return value == null ? NONE
            : value.toLowerCase(Locale.ROOT).replaceAll("\\s*([;=])\\s*", "$1").replaceAll("=\"([^\"\\\\]*)\"", "=$1").strip();
    }

    private static String allowed(List<String> values) {
        if (values.isEmpty()) {
            return NONE;
        }
        TreeSet<String> methods = new TreeSet<>();
        values.forEach(value -> {
            for (String method : value.split(",")) {
                if (!method.isBlank()) {
                    methods.add(method.strip());
                }
            }
        });
        return String.join(", ", methods);
    }

    private static final Pattern EXPIRES = Pattern.compile("^expires=.*", Pattern.CASE_INSENSITIVE);

    private static String cookies(List<String> values) {
        if (values.isEmpty()) {
            return NONE;
        }
        List<String> cookies = new ArrayList<>();
        for (String value : values) {
            String[] parts = value.split(";");
            TreeSet<String> attributes = new TreeSet<>();
            for (int i = 1; i < parts.length; i++) {
                String attribute = parts[i].strip();
                int equals = attribute.indexOf('=');
                String name = (equals < 0 ? attribute : attribute.substring(0, equals)).toLowerCase(Locale.ROOT);
                Matcher expires = EXPIRES.matcher(attribute);
                attributes.add(expires.matches() ? "expires=(date)" : equals < 0 ? name : name + attribute.substring(equals));
            }
            String pair = parts[0].strip();
            // Session ids are random, and each container makes them its own way: only that there is one is compared.
            StringBuilder cookie = new StringBuilder(pair.startsWith("JSESSIONID=") ? "JSESSIONID=(id)" : pair);
            attributes.forEach(attribute -> cookie.append("; ").append(attribute));
            cookies.add(cookie.toString());
        }
        return String.join(" || ", cookies);
    }
}
