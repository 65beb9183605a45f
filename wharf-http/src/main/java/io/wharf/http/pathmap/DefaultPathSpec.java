package io.wharf.http.pathmap;

/**
 * The servlet default spec, declared {@code /}: matches every path and loses to every other
 * spec. The whole path is the {@linkplain MatchedPath#getPathMatch() path match}; there is no
 * path info.
 *
 * <p>Immutable and shareable; see {@link PathSpec} for threads and arguments.
 */
public record DefaultPathSpec() implements PathSpec {

    @Override
    public String getDeclaration() {
        return "/";
    }

    @Override
    public PathSpecGroup getGroup() {
        return PathSpecGroup.DEFAULT;
    }

    @Override
    public MatchedPath matched(String path) {
        return new MatchedPath(DecodedPath.requireAbsolute(path), null);
    }
}
