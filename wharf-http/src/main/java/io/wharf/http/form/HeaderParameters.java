package io.wharf.http.form;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import io.wharf.http.BadMessageException;
import io.wharf.http.internal.HttpTokens;

/**
 * A header value of the shape {@code type; name=value; name="quoted value"} split into its
 * type and parameters, as {@code Content-Type} and {@code Content-Disposition} carry them.
 * Parameter names are lower-cased; a name given twice is an error, so two readers of one
 * message cannot disagree about which value counts.
 *
 * <p>Choices: a quoted string is read without backslash escapes, as browsers write
 * {@code filename="C:\dir\a.txt"} with raw backslashes and escape a quote as {@code %22}
 * (which is kept as it is); an unquoted value is any run of visible ASCII but {@code ;} and
 * {@code "}, a little wider than a token, so {@code boundary=a=b} is read as senders mean it.
 *
 * <p>Linear in the value's length. Called on the parsing thread; holds no buffers.
 *
 * @param type the lower-cased type before the first {@code ;}
 * @param parameters the parameters by lower-cased name, in order; unmodifiable
 */
record HeaderParameters(String type, Map<String, String> parameters) {

    /**
     * @param value the header value
     * @param headerName the header's name, for the failure reason
     * @throws BadMessageException 400 when the value does not have the shape
     */
    static HeaderParameters parse(String value, String headerName) {
        int length = value.length();
        int index = skipBlanks(value, 0);
        int typeStart = index;
        while (index < length && value.charAt(index) != ';') {
            index++;
        }
        String type = trimEnd(value, typeStart, index);
        if (type.isEmpty() || !isTypeText(type)) {
            throw new BadMessageException("bad " + headerName + ": the type is not a token");
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        while (index < length) {
            // value.charAt(index) is ';'
            index = skipBlanks(value, index + 1);
            if (index == length || value.charAt(index) == ';') {
                continue;
            }
            int nameStart = index;
            while (index < length && isTokenChar(value.charAt(index))) {
                index++;
            }
            if (index == nameStart) {
                throw new BadMessageException("bad " + headerName + ": a parameter name is not a token");
            }
            String name = value.substring(nameStart, index).toLowerCase(Locale.ROOT);
            index = skipBlanks(value, index);
            if (index == length || value.charAt(index) != '=') {
                throw new BadMessageException("bad " + headerName + ": a parameter has no '='");
            }
            index = skipBlanks(value, index + 1);
            String parameterValue;
            if (index < length && value.charAt(index) == '"') {
                int close = value.indexOf('"', index + 1);
                if (close < 0) {
                    throw new BadMessageException("bad " + headerName + ": a quoted string is not closed");
                }
                parameterValue = value.substring(index + 1, close);
                index = close + 1;
            } else {
                int valueStart = index;
                while (index < length && isUnquotedValueChar(value.charAt(index))) {
                    index++;
                }
                parameterValue = value.substring(valueStart, index);
            }
            if (hasControl(parameterValue)) {
                throw new BadMessageException("bad " + headerName + ": a parameter value has a control character");
            }
            index = skipBlanks(value, index);
            if (index < length && value.charAt(index) != ';') {
                throw new BadMessageException("bad " + headerName + ": text after a parameter value");
            }
            if (parameters.putIfAbsent(name, parameterValue) != null) {
                throw new BadMessageException("bad " + headerName + ": a parameter is given twice");
            }
        }
        return new HeaderParameters(type.toLowerCase(Locale.ROOT), Collections.unmodifiableMap(parameters));
    }

    /** @return the parameter's value, or null when it is absent */
    String get(String name) {
        return parameters.get(name);
    }

    private static int skipBlanks(String value, int index) {
        while (index < value.length() && (value.charAt(index) == ' ' || value.charAt(index) == '\t')) {
            index++;
        }
        return index;
    }

    private static String trimEnd(String value, int start, int end) {
        while (end > start && (value.charAt(end - 1) == ' ' || value.charAt(end - 1) == '\t')) {
            end--;
        }
        return value.substring(start, end);
    }

    private static boolean isTypeText(String type) {
        for (int i = 0; i < type.length(); i++) {
            char c = type.charAt(i);
            if (c != '/' && !isTokenChar(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                return true;
            }
        }
        return false;
    }

    /** @return whether {@code c} is an RFC 9110 tchar */
    static boolean isTokenChar(char c) {
        return HttpTokens.isTokenChar(c);
    }

    private static boolean isUnquotedValueChar(char c) {
        return c > ' ' && c < 0x7F && c != ';' && c != '"';
    }
}
