package io.wharf.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One challenge of a {@code WWW-Authenticate} field or the credentials of an {@code Authorization}
 * field (RFC 9110 sections 11.3 and 11.4): {@code scheme [ token68 / #auth-param ]}. The client
 * reads servers' challenges with it, the server reads clients' credentials.
 *
 * <p>{@link #parse} reads several per field, separated by commas, each parameter a token or a
 * quoted string: the comma that separates parameters also separates challenges, so a name
 * followed by {@code =} continues one and any other token starts the next.
 *
 * <p><b>Hostile input.</b> Never throws: a field stops being read at its first malformed
 * challenge (an unterminated quoted string, a stray character), which is dropped; the ones read
 * before it are kept. At most {@value #MAX_FIELDS} in all and {@value #MAX_PARAMETERS}
 * parameters each are kept. Linear in the input; immutable; any thread.
 *
 * @param scheme     the scheme as sent, e.g. {@code Digest}
 * @param token68    the token68 after the scheme, or null when it has parameters (or nothing)
 * @param parameters the parameters, names in lower case, values unquoted; the first of a name wins
 */
public record AuthField(String scheme, String token68, Map<String, String> parameters) {

    /** The most challenges or credentials kept from the fields given to {@link #parse}. */
    public static final int MAX_FIELDS = 16;
    /** The most parameters kept of one. */
    public static final int MAX_PARAMETERS = 32;

    /** Checks the scheme; the parameters are kept as given (parse gives an immutable map). */
    public AuthField {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(parameters, "parameters");
    }

    /** @return the challenges or credentials of the field values, in order */
    public static List<AuthField> parse(List<String> fields) {
        List<AuthField> found = new ArrayList<>(2);
        for (String field : fields) {
            new Reader(field, found).read();
        }
        return found;
    }

    /** @return the first of {@code fields} with {@code scheme} (any case), or null */
    public static AuthField first(List<String> fields, String scheme) {
        for (AuthField field : parse(fields)) {
            if (field.scheme().equalsIgnoreCase(scheme)) {
                return field;
            }
        }
        return null;
    }

    /** One field being read. */
    private static final class Reader {
        private final String text;
        private final List<AuthField> out;
        private int at;

        Reader(String text, List<AuthField> out) {
            this.text = text;
            this.out = out;
        }

        void read() {
            while (out.size() < MAX_FIELDS) {
                skipSeparators();
                if (at >= text.length()) {
                    return;
                }
                String scheme = token();
                if (scheme == null) {
                    return;
                }
                if (!challenge(scheme)) {
                    return;
                }
            }
        }

        /** Reads what follows a scheme. @return false when the field is malformed and reading stops */
        private boolean challenge(String scheme) {
            int spaces = skipSpaces();
            Map<String, String> parameters = new LinkedHashMap<>();
            String token68 = null;
            if (spaces > 0 && at < text.length() && text.charAt(at) != ',') {
                if (isParameterAhead()) {
                    if (!parameters(parameters)) {
                        return false;
                    }
                } else {
                    token68 = token68();
                    if (token68 == null) {
                        return false;
                    }
                }
            }
            out.add(new AuthField(scheme, token68, Map.copyOf(parameters)));
            skipSpaces();
            return at >= text.length() || text.charAt(at) == ',';
        }

        /** Reads {@code name = value} pairs while a name with {@code =} follows the commas. */
        private boolean parameters(Map<String, String> parameters) {
            while (true) {
                String name = token();
                skipSpaces();
                if (name == null || at >= text.length() || text.charAt(at) != '=') {
                    return false;
                }
                at++;
                skipSpaces();
                String value = at < text.length() && text.charAt(at) == '"' ? quoted() : token();
                if (value == null) {
                    return false;
                }
                if (parameters.size() < MAX_PARAMETERS) {
                    parameters.putIfAbsent(name.toLowerCase(Locale.ROOT), value);
                }
                skipSpaces();
                if (at >= text.length()) {
                    return true;
                }
                if (text.charAt(at) != ',') {
                    return false;
                }
                int comma = at;
                skipSeparators();
                if (at >= text.length()) {
                    return true;
                }
                if (!isParameterAhead()) {
                    // The next challenge starts here.
                    at = comma;
                    return true;
                }
            }
        }

        /** @return whether a token followed by optional spaces and {@code =} (not a token68's padding) is next */
        private boolean isParameterAhead() {
            int i = at;
            while (i < text.length() && isTokenChar(text.charAt(i))) {
                i++;
            }
            if (i == at) {
                return false;
            }
            while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
                i++;
            }
            if (i >= text.length() || text.charAt(i) != '=') {
                return false;
            }
            // "abc==" or "abc=" at the end is a token68 padded with '=', not a parameter.
            int j = i + 1;
            while (j < text.length() && (text.charAt(j) == ' ' || text.charAt(j) == '\t')) {
                j++;
            }
            return j < text.length() && text.charAt(j) != '=' && text.charAt(j) != ',';
        }

        private String token() {
            int start = at;
            while (at < text.length() && isTokenChar(text.charAt(at))) {
                at++;
            }
            return at == start ? null : text.substring(start, at);
        }

        private String token68() {
            int start = at;
            while (at < text.length() && isToken68Char(text.charAt(at))) {
                at++;
            }
            if (at == start) {
                return null;
            }
            while (at < text.length() && text.charAt(at) == '=') {
                at++;
            }
            return text.substring(start, at);
        }

        /** @return the unescaped content of the quoted string at {@code at}, or null when it is not terminated */
        private String quoted() {
            StringBuilder value = new StringBuilder();
            at++;
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return value.toString();
                }
                if (c == '\\') {
                    if (at >= text.length()) {
                        return null;
                    }
                    c = text.charAt(at++);
                }
                value.append(c);
            }
            return null;
        }

        private int skipSpaces() {
            int start = at;
            while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
                at++;
            }
            return at - start;
        }

        private void skipSeparators() {
            while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t' || text.charAt(at) == ',')) {
                at++;
            }
        }

        private static boolean isTokenChar(char c) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
        }

        private static boolean isToken68Char(char c) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~+/".indexOf(c) >= 0;
        }
    }
}
