package io.wharf.http.pathmap;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A spec written as a URI template in the simple style web frameworks use, a subset of RFC
 * 6570 level 1: {@code /users/{id}/posts/{post}}. Each variable stands for one whole,
 * non-empty path segment; the other segments must match literally. A match gives the
 * variables as {@linkplain MatchedPath#getParameters() parameters} and the whole path as
 * {@linkplain MatchedPath#getPathMatch() path match}, with no path info.
 *
 * <p><b>Declarations.</b> A template starts with {@code /}. A variable name is one or more
 * of {@code A-Z a-z 0-9 _}, optionally in dot-separated parts ({@code {user.id}}). Rejected,
 * with an {@link IllegalArgumentException} naming the problem: an empty variable
 * {@code {}}, nested or unclosed braces, a stray <code>&#125;</code>, a variable that is only part of
 * a segment ({@code /file.{ext}}), the same name twice, a name with other characters (so no
 * RFC 6570 operators such as {@code {+path}}), and {@code *} anywhere.
 *
 * <p><b>Rank.</b> No variables: EXACT. The last segment a variable: PREFIX_GLOB (a fixed
 * beginning, a variable end). Otherwise MIDDLE_GLOB (both ends fixed).
 *
 * <p><b>Cost.</b> Matching walks the path once, comparing segments, without regular
 * expressions: linear in the path's length. Immutable and shareable.
 */
public final class UriTemplatePathSpec implements PathSpec {

    /** One segment of the template: a literal text, or a variable (then {@code text} is its name). */
    private record Segment(String text, boolean variable) {
    }

    private final String declaration;
    private final Segment[] segments;
    private final PathSpecGroup group;
    private final List<String> variables;

    /**
     * @param template the template, starting with {@code /}
     * @throws IllegalArgumentException naming the problem when the template is malformed
     */
    public UriTemplatePathSpec(String template) {
        if (template.isEmpty() || template.charAt(0) != '/') {
            throw new IllegalArgumentException("URI template '" + template + "' must start with '/'");
        }
        int star = template.indexOf('*');
        if (star >= 0) {
            throw new IllegalArgumentException("URI template '" + template + "' has '*' at index " + star
                    + "; templates take whole-segment variables such as {name}, not globs");
        }
        this.declaration = template;
        List<Segment> parsed = new ArrayList<>();
        List<String> names = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int segmentStart = 1;
        while (true) {
            int slash = template.indexOf('/', segmentStart);
            int segmentEnd = slash < 0 ? template.length() : slash;
            Segment segment = parseSegment(template, segmentStart, segmentEnd);
            if (segment.variable() && !seen.add(segment.text())) {
                throw new IllegalArgumentException("URI template '" + template + "' declares variable '"
                        + segment.text() + "' twice");
            }
            if (segment.variable()) {
                names.add(segment.text());
            }
            parsed.add(segment);
            if (slash < 0) {
                break;
            }
            segmentStart = slash + 1;
        }
        this.segments = parsed.toArray(new Segment[0]);
        this.variables = List.copyOf(names);
        this.group = groupOf(segments);
    }

    private Segment parseSegment(String template, int start, int end) {
        int open = -1;
        int close = -1;
        for (int i = start; i < end; i++) {
            char c = template.charAt(i);
            if (c == '{') {
                if (close >= 0) {
                    throw new IllegalArgumentException("URI template '" + template + "' has a second variable in one segment"
                            + " at index " + i + "; a variable must be a whole segment");
                }
                if (open >= 0) {
                    throw new IllegalArgumentException("URI template '" + template + "' has nested '{' at index " + i);
                }
                open = i;
            } else if (c == '}') {
                if (open < 0 || close >= 0) {
                    throw new IllegalArgumentException("URI template '" + template + "' has '}' without '{' at index " + i);
                }
                close = i;
            }
        }
        if (open < 0) {
            return new Segment(template.substring(start, end), false);
        }
        if (close < 0) {
            throw new IllegalArgumentException("URI template '" + template + "' has '{' at index " + open
                    + " without a closing '}' in its segment");
        }
        if (open != start || close != end - 1) {
            throw new IllegalArgumentException("URI template '" + template + "' has variable '"
                    + template.substring(open, close + 1) + "' that is not a whole segment");
        }
        String name = template.substring(open + 1, close);
        if (name.isEmpty()) {
            throw new IllegalArgumentException("URI template '" + template + "' has an empty variable '{}' at index " + open);
        }
        checkVariableName(template, name);
        return new Segment(name, true);
    }

    /** RFC 6570 varname without pct-encoding: varchar *( ["."] varchar ), varchar = ALPHA / DIGIT / "_". */
    private static void checkVariableName(String template, String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean varchar = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_';
            boolean innerDot = c == '.' && i > 0 && i < name.length() - 1 && name.charAt(i - 1) != '.';
            if (!varchar && !innerDot) {
                throw new IllegalArgumentException("URI template '" + template + "' has variable name '" + name
                        + "' with illegal character '" + c + "'; names are made of A-Z a-z 0-9 _ and inner dots");
            }
        }
    }

    private static PathSpecGroup groupOf(Segment[] segments) {
        boolean anyVariable = false;
        for (Segment segment : segments) {
            anyVariable |= segment.variable();
        }
        if (!anyVariable) {
            return PathSpecGroup.EXACT;
        }
        return segments[segments.length - 1].variable() ? PathSpecGroup.PREFIX_GLOB : PathSpecGroup.MIDDLE_GLOB;
    }

    /** @return the variable names in the order they appear; unmodifiable */
    public List<String> getVariables() {
        return variables;
    }

    @Override
    public String getDeclaration() {
        return declaration;
    }

    @Override
    public PathSpecGroup getGroup() {
        return group;
    }

    @Override
    public MatchedPath matched(String path) {
        DecodedPath.requireAbsolute(path);
        Map<String, String> parameters = variables.isEmpty() ? Map.of() : new LinkedHashMap<>();
        int segmentStart = 1;
        for (int s = 0; s < segments.length; s++) {
            int slash = path.indexOf('/', segmentStart);
            int segmentEnd = slash < 0 ? path.length() : slash;
            boolean last = s == segments.length - 1;
            if (last != (slash < 0)) {
                return null; // a different number of segments
            }
            Segment segment = segments[s];
            int length = segmentEnd - segmentStart;
            if (segment.variable()) {
                if (length == 0) {
                    return null;
                }
                parameters.put(segment.text(), path.substring(segmentStart, segmentEnd));
            } else if (length != segment.text().length() || !path.startsWith(segment.text(), segmentStart)) {
                return null;
            }
            segmentStart = segmentEnd + 1;
        }
        return new MatchedPath(path, null, parameters);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof UriTemplatePathSpec that && declaration.equals(that.declaration);
    }

    @Override
    public int hashCode() {
        return declaration.hashCode();
    }

    @Override
    public String toString() {
        return "UriTemplatePathSpec[" + declaration + "]";
    }
}
