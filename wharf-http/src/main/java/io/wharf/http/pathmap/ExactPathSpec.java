package io.wharf.http.pathmap;

/**
 * A servlet-style spec that matches one path exactly, e.g. {@code /catalog}. The whole path
 * is the {@linkplain MatchedPath#getPathMatch() path match}; there is no path info.
 *
 * <p>Immutable and shareable; see {@link PathSpec} for threads and arguments.
 *
 * @param path the path, starting with {@code /}, not {@code /} alone (that declares the
 *     {@link DefaultPathSpec}) and without {@code *}
 */
public record ExactPathSpec(String path) implements PathSpec {

    /** @throws IllegalArgumentException naming the problem when {@code path} is not a valid exact spec */
    public ExactPathSpec {
        if (path.isEmpty() || path.charAt(0) != '/') {
            throw new IllegalArgumentException("exact path spec '" + path + "' must start with '/'");
        }
        if (path.equals("/")) {
            throw new IllegalArgumentException("'/' declares the default spec, not an exact one;"
                    + " use \"\" (the root spec) to match only '/'");
        }
        int star = path.indexOf('*');
        if (star >= 0) {
            throw new IllegalArgumentException("path spec '" + path + "' has '*' at index " + star
                    + "; '*' is only allowed as a final '/*' or a leading '*.'");
        }
    }

    @Override
    public String getDeclaration() {
        return path;
    }

    @Override
    public PathSpecGroup getGroup() {
        return PathSpecGroup.EXACT;
    }

    @Override
    public MatchedPath matched(String path) {
        return this.path.equals(DecodedPath.requireAbsolute(path)) ? new MatchedPath(this.path, null) : null;
    }
}
