package io.wharf.http.pathmap;

/**
 * A servlet-style spec that matches a path and everything under it: {@code /a/*} matches
 * {@code /a}, {@code /a/} and {@code /a/b/c} but not {@code /ab}; {@code /*} matches every
 * path. The prefix is the {@linkplain MatchedPath#getPathMatch() path match} and the rest,
 * when there is one, the {@linkplain MatchedPath#getPathInfo() path info}.
 *
 * <p>Immutable and shareable; see {@link PathSpec} for threads and arguments.
 *
 * @param prefix the declaration without its final {@code /*}: {@code /a} for {@code /a/*},
 *     the empty string for {@code /*}; starts with {@code /} unless empty, has no {@code *}
 */
public record PrefixPathSpec(String prefix) implements PathSpec {

    /** @throws IllegalArgumentException naming the problem when {@code prefix} is not a valid prefix */
    public PrefixPathSpec {
        if (!prefix.isEmpty() && prefix.charAt(0) != '/') {
            throw new IllegalArgumentException("prefix path spec '" + prefix + "/*' must start with '/'");
        }
        int star = prefix.indexOf('*');
        if (star >= 0) {
            throw new IllegalArgumentException("path spec '" + prefix + "/*' has '*' at index " + star
                    + "; '*' is only allowed as a final '/*' or a leading '*.'");
        }
    }

    @Override
    public String getDeclaration() {
        return prefix + "/*";
    }

    @Override
    public PathSpecGroup getGroup() {
        return PathSpecGroup.PREFIX_GLOB;
    }

    @Override
    public MatchedPath matched(String path) {
        DecodedPath.requireAbsolute(path);
        if (!path.startsWith(prefix)) {
            return null;
        }
        if (path.length() == prefix.length()) {
            return new MatchedPath(prefix, null);
        }
        if (path.charAt(prefix.length()) != '/') {
            return null;
        }
        return new MatchedPath(prefix, path.substring(prefix.length()));
    }
}
