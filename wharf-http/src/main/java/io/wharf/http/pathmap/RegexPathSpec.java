package io.wharf.http.pathmap;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A spec that matches paths against a regular expression, declared with a leading {@code ^}
 * for {@link PathSpec#from(String)} ({@code ^/api/(?<id>[0-9]+)$}) or given to the
 * constructor with or without it. The pattern is compiled once and must match the whole path
 * ({@link Matcher#matches()}), so {@code ^} and {@code $} are implied.
 *
 * <p><b>Match.</b> Every capturing group that took part in the match is a
 * {@linkplain MatchedPath#getParameters() parameter}, under its number ({@code "1"},
 * {@code "2"}, ...) and, when named, also under its name. The
 * {@linkplain MatchedPath#getPathMatch() path match} is the group named {@code pathMatch} when
 * there is one that took part, else the whole path; the
 * {@linkplain MatchedPath#getPathInfo() path info} is the group named {@code pathInfo} when
 * there is one that matched something, else null. So {@code ^(?<pathMatch>/api)(?<pathInfo>/.*)?$}
 * behaves like the prefix spec {@code /api/*}.
 *
 * <p><b>Rank.</b> The {@linkplain #getGroup() group} is read from the shape of the pattern:
 * literal only is EXACT; a literal beginning and end with pattern between is MIDDLE_GLOB;
 * a literal beginning and a pattern end is PREFIX_GLOB; a pattern beginning is SUFFIX_GLOB
 * (see {@link PathMappings} for how groups rank).
 *
 * <p><b>Bounded time.</b> The pattern comes from the application but the path from the
 * peer, and some patterns backtrack exponentially. Each match may read at most
 * {@code 1024 + stepsPerCharacter × path length} characters (64 per character by default);
 * beyond that {@link #matched(String)} throws a {@link io.wharf.http.BadMessageException}
 * (400) instead of burning the thread. Well-behaved patterns read each character a few
 * times and never come near the budget.
 *
 * <p>Immutable and shareable: each match uses its own {@link Matcher}.
 */
public final class RegexPathSpec implements PathSpec {

    /** The default for how many characters a match may read per character of the path. */
    public static final int DEFAULT_STEPS_PER_CHARACTER = 64;

    /** Characters a match may read whatever the path's length, so short paths have room. */
    private static final int BASE_STEPS = 1024;

    private static final String PATH_MATCH_GROUP = "pathMatch";
    private static final String PATH_INFO_GROUP = "pathInfo";

    private final String declaration;
    private final Pattern pattern;
    private final PathSpecGroup group;
    private final int stepsPerCharacter;
    private final Map<String, Integer> namedGroups;

    /** A spec with the default budget of {@value #DEFAULT_STEPS_PER_CHARACTER} steps per character. */
    public RegexPathSpec(String regex) {
        this(regex, DEFAULT_STEPS_PER_CHARACTER);
    }

    /**
     * @param regex the regular expression, with or without a leading {@code ^}
     * @param stepsPerCharacter how many characters one match may read per character of the
     *     path, on top of a fixed 1024; at least 1
     * @throws IllegalArgumentException naming the problem when the regex is empty or invalid,
     *     or the budget is not positive
     */
    public RegexPathSpec(String regex, int stepsPerCharacter) {
        if (regex.isEmpty() || regex.equals("^")) {
            throw new IllegalArgumentException("regex path spec '" + regex + "' has no pattern");
        }
        if (stepsPerCharacter < 1) {
            throw new IllegalArgumentException("regex path spec '" + regex + "': steps per character must be at least 1, not "
                    + stepsPerCharacter);
        }
        try {
            this.pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("regex path spec '" + regex + "' is not a valid regular expression: "
                    + e.getDescription() + " near index " + e.getIndex(), e);
        }
        this.declaration = regex;
        this.group = RegexShape.of(regex);
        this.stepsPerCharacter = stepsPerCharacter;
        this.namedGroups = pattern.namedGroups();
    }

    /** @return the compiled pattern */
    public Pattern getPattern() {
        return pattern;
    }

    /** @return how many characters one match may read per character of the path, on top of a fixed 1024 */
    public int getStepsPerCharacter() {
        return stepsPerCharacter;
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
        long budget = BASE_STEPS + (long) stepsPerCharacter * path.length();
        Matcher matcher = pattern.matcher(new StepBoundedText(path, budget));
        if (!matcher.matches()) {
            return null;
        }
        int groups = matcher.groupCount();
        if (groups == 0) {
            return new MatchedPath(path, null);
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int number = 1; number <= groups; number++) {
            String value = matcher.group(number);
            if (value != null) {
                parameters.put(Integer.toString(number), value);
            }
        }
        for (Map.Entry<String, Integer> named : namedGroups.entrySet()) {
            String value = matcher.group(named.getValue());
            if (value != null) {
                parameters.put(named.getKey(), value);
            }
        }
        String pathMatch = parameters.getOrDefault(PATH_MATCH_GROUP, path);
        String pathInfo = parameters.get(PATH_INFO_GROUP);
        return new MatchedPath(pathMatch, pathInfo == null || pathInfo.isEmpty() ? null : pathInfo, parameters);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RegexPathSpec that
                && declaration.equals(that.declaration)
                && stepsPerCharacter == that.stepsPerCharacter;
    }

    @Override
    public int hashCode() {
        return declaration.hashCode();
    }

    @Override
    public String toString() {
        return "RegexPathSpec[" + declaration + "]";
    }
}
