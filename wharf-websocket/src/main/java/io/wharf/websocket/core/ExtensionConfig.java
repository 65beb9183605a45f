package io.wharf.websocket.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One extension as named in a {@code Sec-WebSocket-Extensions} field (RFC 6455 section 9.1):
 * its token and its parameters in order, each with a value or none. A client's field offers a
 * list of these, possibly the same extension several times with different parameters in its
 * order of preference; a server's answers with those it accepted. Immutable; any thread.
 *
 * <pre>
 *  extension-list = 1#( extension-token *( ";" token [ "=" ( token / quoted-string ) ] ) )
 * </pre>
 *
 * @param name the extension's token, as sent (extension names compare case-sensitively)
 * @param parameters the parameters in the order sent
 */
public record ExtensionConfig(String name, List<Parameter> parameters) {

    /**
     * One parameter of an extension.
     *
     * @param name the parameter's token
     * @param value its value (a quoted-string already unquoted), or null when it has none
     */
    public record Parameter(String name, String value) {
        public Parameter {
            Objects.requireNonNull(name, "name");
        }

        @Override
        public String toString() {
            return value == null ? name : name + "=" + value;
        }
    }

    public ExtensionConfig {
        Objects.requireNonNull(name, "name");
        parameters = List.copyOf(parameters);
    }

    /** @return an extension with these parameters, given as name, value (null for none), name, value... */
    public static ExtensionConfig of(String name, String... nameValues) {
        List<Parameter> parameters = new ArrayList<>();
        for (int i = 0; i + 1 < nameValues.length; i += 2) {
            parameters.add(new Parameter(nameValues[i], nameValues[i + 1]));
        }
        return new ExtensionConfig(name, parameters);
    }

    /**
     * Parses the values of every {@code Sec-WebSocket-Extensions} field of a message, in order.
     *
     * @throws IllegalArgumentException naming the first thing that breaks the grammar
     */
    public static List<ExtensionConfig> parse(List<String> fieldValues) {
        List<ExtensionConfig> extensions = new ArrayList<>();
        for (String value : fieldValues) {
            new Reader(value).readList(extensions);
        }
        return extensions;
    }

    /** @return the field value naming these extensions, or null for none */
    public static String format(List<ExtensionConfig> extensions) {
        if (extensions.isEmpty()) {
            return null;
        }
        StringBuilder field = new StringBuilder();
        for (ExtensionConfig extension : extensions) {
            if (!field.isEmpty()) {
                field.append(", ");
            }
            field.append(extension);
        }
        return field.toString();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(name);
        for (Parameter parameter : parameters) {
            text.append("; ").append(parameter);
        }
        return text.toString();
    }

    /** A cursor over one field value; throws at the first character the grammar does not allow. */
    private static final class Reader {
        private final String text;
        private int at;

        Reader(String text) {
            this.text = text;
        }

        void readList(List<ExtensionConfig> into) {
            while (true) {
                skipSpaces();
                if (at == text.length()) {
                    return;
                }
                if (text.charAt(at) == ',') {
                    at++;
                    continue;
                }
                into.add(readExtension());
                skipSpaces();
                if (at < text.length()) {
                    expect(',');
                }
            }
        }

        private ExtensionConfig readExtension() {
            String name = readToken("an extension name");
            List<Parameter> parameters = new ArrayList<>();
            skipSpaces();
            while (at < text.length() && text.charAt(at) == ';') {
                at++;
                skipSpaces();
                String parameter = readToken("a parameter name");
                skipSpaces();
                String value = null;
                if (at < text.length() && text.charAt(at) == '=') {
                    at++;
                    skipSpaces();
                    value = at < text.length() && text.charAt(at) == '"' ? readQuoted() : readToken("a parameter value");
                    skipSpaces();
                }
                parameters.add(new Parameter(parameter, value));
            }
            return new ExtensionConfig(name, parameters);
        }

        private String readToken(String what) {
            int start = at;
            while (at < text.length() && isTokenChar(text.charAt(at))) {
                at++;
            }
            if (start == at) {
                throw new IllegalArgumentException("expected " + what + " at " + start + " of \"" + text + "\"");
            }
            return text.substring(start, at);
        }

        /** A quoted-string whose unescaped content must be a token (RFC 6455 section 9.1). */
        private String readQuoted() {
            at++;
            StringBuilder value = new StringBuilder();
            while (true) {
                if (at == text.length()) {
                    throw new IllegalArgumentException("unterminated quoted value in \"" + text + "\"");
                }
                char c = text.charAt(at++);
                if (c == '"') {
                    break;
                }
                if (c == '\\' && at < text.length()) {
                    c = text.charAt(at++);
                }
                if (!isTokenChar(c)) {
                    throw new IllegalArgumentException("a quoted parameter value must be a token: \"" + text + "\"");
                }
                value.append(c);
            }
            if (value.isEmpty()) {
                throw new IllegalArgumentException("empty quoted parameter value in \"" + text + "\"");
            }
            return value.toString();
        }

        private void expect(char c) {
            if (at >= text.length() || text.charAt(at) != c) {
                throw new IllegalArgumentException("expected '" + c + "' at " + at + " of \"" + text + "\"");
            }
            at++;
        }

        private void skipSpaces() {
            while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
                at++;
            }
        }

        private static boolean isTokenChar(char c) {
            return c > 0x20 && c < 0x7F && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0;
        }
    }
}
