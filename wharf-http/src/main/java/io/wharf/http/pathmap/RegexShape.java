package io.wharf.http.pathmap;

/**
 * Reads the shape of a regular expression to rank a {@link RegexPathSpec} among other specs:
 * each character of the pattern is either <em>literal</em> (it matches itself: a plain
 * character outside any group or class, an escaped punctuation character, text between
 * {@code \Q} and {@code \E}) or <em>glob</em> (everything else: {@code .}, classes, groups,
 * alternation, anchors, escapes such as {@code \d}, quantifiers and the atom they apply to).
 * Then, by which ends of the pattern are literal:
 * <ul>
 * <li>no glob at all: {@link PathSpecGroup#EXACT};
 * <li>a literal beginning and a literal end: {@link PathSpecGroup#MIDDLE_GLOB};
 * <li>a literal beginning and a glob end: {@link PathSpecGroup#PREFIX_GLOB};
 * <li>a glob beginning, whatever the end: {@link PathSpecGroup#SUFFIX_GLOB}, the lowest rank
 *     a pattern can have, so that {@code ^.*$} ranks just above the default spec.
 * </ul>
 * A leading {@code ^} and a final unescaped {@code $} are ignored, since path specs always
 * match the whole path. The reading is a heuristic for ranking only; matching always uses
 * the compiled pattern. Stateless; runs once per spec, in time linear in the pattern.
 */
final class RegexShape {

    private RegexShape() {
    }

    static PathSpecGroup of(String regex) {
        int start = regex.startsWith("^") ? 1 : 0;
        int end = regex.length();
        if (end > start && regex.charAt(end - 1) == '$' && !isEscaped(regex, end - 1)) {
            end--;
        }
        boolean[] glob = globMarks(regex, start, end);
        if (glob.length == 0 || allLiteral(glob)) {
            return PathSpecGroup.EXACT;
        }
        boolean literalBeginning = !glob[0];
        boolean literalEnd = !glob[glob.length - 1];
        if (literalBeginning) {
            return literalEnd ? PathSpecGroup.MIDDLE_GLOB : PathSpecGroup.PREFIX_GLOB;
        }
        return PathSpecGroup.SUFFIX_GLOB;
    }

    private static boolean allLiteral(boolean[] glob) {
        for (boolean mark : glob) {
            if (mark) {
                return false;
            }
        }
        return true;
    }

    /** @return whether the character at {@code index} is preceded by an odd number of backslashes */
    private static boolean isEscaped(String regex, int index) {
        int backslashes = 0;
        while (index - backslashes - 1 >= 0 && regex.charAt(index - backslashes - 1) == '\\') {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    /** @return for each character of {@code regex[start, end)}, whether it is glob */
    private static boolean[] globMarks(String regex, int start, int end) {
        boolean[] glob = new boolean[end - start];
        int groupDepth = 0;
        int classDepth = 0;
        int atomStart = -1; // index in glob[] of the last literal atom, which a quantifier turns glob
        int i = start;
        while (i < end) {
            char c = regex.charAt(i);
            int mark = i - start;
            if (classDepth > 0) {
                glob[mark] = true;
                if (c == '\\' && i + 1 < end) {
                    glob[mark + 1] = true;
                    i += 2;
                    continue;
                }
                if (c == '[') {
                    classDepth++;
                } else if (c == ']') {
                    classDepth--;
                }
                i++;
                continue;
            }
            if (c == '\\' && i + 1 < end) {
                char escaped = regex.charAt(i + 1);
                if (escaped == 'Q') {
                    int quoteEnd = regex.indexOf("\\E", i + 2);
                    int stop = quoteEnd < 0 || quoteEnd > end ? end : quoteEnd;
                    boolean inGroup = groupDepth > 0;
                    // the quoting marks and the quoted text are literal, unless inside a group
                    for (int q = i; q < Math.min(stop + 2, end); q++) {
                        glob[q - start] = inGroup;
                    }
                    atomStart = stop > i + 2 && !inGroup ? stop - 1 - start : -1;
                    i = Math.min(stop + 2, end);
                    continue;
                }
                boolean literal = groupDepth == 0 && !Character.isLetterOrDigit(escaped);
                glob[mark] = !literal;
                glob[mark + 1] = !literal;
                atomStart = literal ? mark : -1;
                i += 2;
                continue;
            }
            switch (c) {
                case '[' -> {
                    classDepth = 1;
                    glob[mark] = true;
                    atomStart = -1;
                }
                case '(' -> {
                    groupDepth++;
                    glob[mark] = true;
                    atomStart = -1;
                }
                case ')' -> {
                    groupDepth = Math.max(0, groupDepth - 1);
                    glob[mark] = true;
                    atomStart = -1;
                }
                case '*', '+', '?', '{' -> {
                    glob[mark] = true;
                    if (atomStart >= 0) {
                        for (int a = atomStart; a < mark; a++) {
                            glob[a] = true;
                        }
                    }
                    atomStart = -1;
                    if (c == '{') {
                        // a bounded quantifier {n}, {n,} or {n,m}: glob up to and including its '}'
                        while (i + 1 < end && regex.charAt(i) != '}') {
                            i++;
                            glob[i - start] = true;
                        }
                    }
                }
                case '.', '|', '^', '$' -> {
                    glob[mark] = true;
                    atomStart = -1;
                }
                default -> {
                    glob[mark] = groupDepth > 0;
                    atomStart = groupDepth > 0 ? -1 : mark;
                }
            }
            i++;
        }
        return glob;
    }
}
