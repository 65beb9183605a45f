package io.wharf.http.pathmap;

/**
 * The servlet root spec, declared {@code ""}: matches only the path {@code /}, with an empty
 * {@linkplain MatchedPath#getPathMatch() path match} and {@code /} as
 * {@linkplain MatchedPath#getPathInfo() path info}, as the servlet specification says of a
 * request for a context's root.
 *
 * <p>Immutable and shareable; see {@link PathSpec} for threads and arguments.
 */
public record RootPathSpec() implements PathSpec {

    @Override
    public String getDeclaration() {
        return "";
    }

    @Override
    public PathSpecGroup getGroup() {
        return PathSpecGroup.ROOT;
    }

    @Override
    public MatchedPath matched(String path) {
        return DecodedPath.requireAbsolute(path).length() == 1 ? new MatchedPath("", "/") : null;
    }
}
