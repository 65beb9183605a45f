package io.wharf.http.pathmap;

/**
 * A servlet-style extension spec, {@code *.jsp}: matches a path whose last segment ends with
 * a {@code .} followed by the suffix, so {@code /a/b.jsp} but not {@code /a.jsp/b}. The whole
 * path is the {@linkplain MatchedPath#getPathMatch() path match}; there is no path info.
 *
 * <p>The servlet specification takes the extension after the last {@code .}; Wharf also
 * accepts suffixes holding dots, such as {@code *.tar.gz}, which match a last segment ending
 * in {@code .tar.gz}. When several suffix specs match, the longest wins.
 *
 * <p>Immutable and shareable; see {@link PathSpec} for threads and arguments.
 *
 * @param suffix the declaration without its leading {@code *.}: {@code jsp} for
 *     {@code *.jsp}; not empty, without {@code /} or {@code *}
 */
public record SuffixPathSpec(String suffix) implements PathSpec {

    /** @throws IllegalArgumentException naming the problem when {@code suffix} is not a valid suffix */
    public SuffixPathSpec {
        if (suffix.isEmpty()) {
            throw new IllegalArgumentException("suffix path spec '*." + suffix + "' has an empty suffix");
        }
        if (suffix.indexOf('/') >= 0) {
            throw new IllegalArgumentException("suffix path spec '*." + suffix
                    + "' has a '/' in its suffix; a suffix matches within the last segment only");
        }
        if (suffix.indexOf('*') >= 0) {
            throw new IllegalArgumentException("suffix path spec '*." + suffix
                    + "' has a second '*'; '*' is only allowed as a final '/*' or a leading '*.'");
        }
    }

    @Override
    public String getDeclaration() {
        return "*." + suffix;
    }

    @Override
    public PathSpecGroup getGroup() {
        return PathSpecGroup.SUFFIX_GLOB;
    }

    @Override
    public MatchedPath matched(String path) {
        DecodedPath.requireAbsolute(path);
        int dot = path.length() - suffix.length() - 1;
        // The suffix has no '/', so a '.' right before it lies in the last segment.
        if (dot > 0 && path.charAt(dot) == '.' && path.endsWith(suffix)) {
            return new MatchedPath(path, null);
        }
        return null;
    }
}
