package io.wharf.loadgen.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, strict JSON (RFC 8259) reader for the generator's input files — resource trees, HAR
 * files — into plain values: {@link Map} (keys in file order), {@link List}, {@link String},
 * {@link Double}, {@link Boolean} and null. Nesting is bounded (64 levels). Bad input fails with an
 * {@link IllegalArgumentException} naming what was expected and the character offset. One
 * instance reads one text, on one thread.
 */
public final class JsonReader {

    private static final int MAX_DEPTH = 64;

    private final String text;
    private int position;
    private int depth;

    private JsonReader(String text) {
        this.text = text;
    }

    /** @return the value {@code text} holds, which must be all of it (whitespace aside) */
    public static Object read(String text) {
        JsonReader reader = new JsonReader(text);
        Object value = reader.value();
        reader.skipWhitespace();
        if (reader.position != text.length()) {
            throw reader.failure("the end of the text");
        }
        return value;
    }

    private Object value() {
        skipWhitespace();
        if (position >= text.length()) {
            throw failure("a value");
        }
        char c = text.charAt(position);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    yield number();
                }
                throw failure("a value");
            }
        };
    }

    private Map<String, Object> object() {
        enter();
        Map<String, Object> object = new LinkedHashMap<>();
        position++;
        skipWhitespace();
        if (peek('}')) {
            position++;
            depth--;
            return object;
        }
        while (true) {
            skipWhitespace();
            if (!peek('"')) {
                throw failure("a member name in quotes");
            }
            String name = string();
            skipWhitespace();
            expect(':');
            object.put(name, value());
            skipWhitespace();
            if (peek(',')) {
                position++;
            } else {
                expect('}');
                depth--;
                return object;
            }
        }
    }

    private List<Object> array() {
        enter();
        List<Object> array = new ArrayList<>();
        position++;
        skipWhitespace();
        if (peek(']')) {
            position++;
            depth--;
            return array;
        }
        while (true) {
            array.add(value());
            skipWhitespace();
            if (peek(',')) {
                position++;
            } else {
                expect(']');
                depth--;
                return array;
            }
        }
    }

    private String string() {
        position++;
        StringBuilder string = new StringBuilder();
        while (position < text.length()) {
            char c = text.charAt(position++);
            if (c == '"') {
                return string.toString();
            }
            if (c < 0x20) {
                throw failure("no control character in a string");
            }
            if (c != '\\') {
                string.append(c);
                continue;
            }
            if (position >= text.length()) {
                break;
            }
            char escape = text.charAt(position++);
            switch (escape) {
                case '"', '\\', '/' -> string.append(escape);
                case 'b' -> string.append('\b');
                case 'f' -> string.append('\f');
                case 'n' -> string.append('\n');
                case 'r' -> string.append('\r');
                case 't' -> string.append('\t');
                case 'u' -> {
                    if (position + 4 > text.length()) {
                        throw failure("four hex digits");
                    }
                    try {
                        string.append((char) Integer.parseInt(text.substring(position, position + 4), 16));
                    } catch (NumberFormatException x) {
                        throw failure("four hex digits");
                    }
                    position += 4;
                }
                default -> throw failure("a valid escape");
            }
        }
        throw failure("the closing quote of a string");
    }

    private Double number() {
        int start = position;
        while (position < text.length() && "+-0123456789.eE".indexOf(text.charAt(position)) >= 0) {
            position++;
        }
        String token = text.substring(start, position);
        if (!token.matches("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?")) {
            position = start;
            throw failure("a number");
        }
        return Double.valueOf(token);
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, position)) {
            throw failure("a value");
        }
        position += word.length();
        return value;
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw failure("at most " + MAX_DEPTH + " levels of nesting");
        }
    }

    private boolean peek(char c) {
        return position < text.length() && text.charAt(position) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw failure("'" + c + "'");
        }
        position++;
    }

    private void skipWhitespace() {
        while (position < text.length() && " \t\r\n".indexOf(text.charAt(position)) >= 0) {
            position++;
        }
    }

    private IllegalArgumentException failure(String expected) {
        return new IllegalArgumentException("bad JSON: expected " + expected + " at offset " + position);
    }
}
