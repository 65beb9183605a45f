package io.wharf.http.pathmap;

/**
 * One way of matching a decoded URI path, such as {@code /api/*}, {@code *.jsp},
 * {@code ^/items/(?<id>[0-9]+)$} or {@code /users/{id}}. {@link PathMappings} holds many
 * and picks the best for a request; the server's path-mapping and context handlers call it
 * on the thread that handles the request.
 *
 * <p>Every implementation is immutable and safe to share between threads. Paths handed to
 * {@link #matched(String)} are decoded (no {@code %XX} left), normalised and start with
 * {@code /}; a spec holds no reference to them after the call.
 *
 * <p>{@link #from(String)} reads a declaration:
 * <ul>
 * <li>starting with {@code ^}: a {@link RegexPathSpec};
 * <li>containing <code>&#123;</code>: a {@link UriTemplatePathSpec};
 * <li>otherwise servlet style: {@code ""} the {@link RootPathSpec root}, {@code /} the
 *     {@link DefaultPathSpec default}, {@code *.ext} a {@link SuffixPathSpec suffix},
 *     {@code /a/*} or {@code /*} a {@link PrefixPathSpec prefix}, any other path starting with
 *     {@code /} an {@link ExactPathSpec exact} spec. A {@code *} anywhere else is an error.
 * </ul>
 * Two specs are equal when they are of the same kind and have the same declaration (and,
 * for regexes, the same step budget).
 */
public sealed interface PathSpec
        permits ExactPathSpec, PrefixPathSpec, SuffixPathSpec, RootPathSpec, DefaultPathSpec,
                RegexPathSpec, UriTemplatePathSpec {

    /** @return the declaration as written, e.g. {@code /a/*} */
    String getDeclaration();

    /** @return the shape of the spec, which ranks it against other specs */
    PathSpecGroup getGroup();

    /** @return the length of the declaration; within a group a longer spec is preferred */
    default int getSpecLength() {
        return getDeclaration().length();
    }

    /** @return the number of {@code /} characters in the declaration */
    default int getPathDepth() {
        String declaration = getDeclaration();
        int depth = 0;
        for (int i = 0; i < declaration.length(); i++) {
            if (declaration.charAt(i) == '/') {
                depth++;
            }
        }
        return depth;
    }

    /**
     * Matches a decoded path.
     *
     * @param path a decoded path starting with {@code /}
     * @return how the path matched, or null when it does not
     * @throws IllegalArgumentException when {@code path} does not start with {@code /}
     * @throws io.wharf.http.BadMessageException (400) when a {@link RegexPathSpec} would need
     *     more steps than its budget allows to decide
     */
    MatchedPath matched(String path);

    /**
     * Reads a declaration as described in the {@linkplain PathSpec type's documentation}.
     *
     * @throws IllegalArgumentException naming the problem when the declaration is not valid
     */
    static PathSpec from(String declaration) {
        if (declaration.startsWith("^")) {
            return new RegexPathSpec(declaration);
        }
        if (declaration.indexOf('{') >= 0) {
            return new UriTemplatePathSpec(declaration);
        }
        if (declaration.isEmpty()) {
            return new RootPathSpec();
        }
        if (declaration.equals("/")) {
            return new DefaultPathSpec();
        }
        if (declaration.startsWith("*.")) {
            return new SuffixPathSpec(declaration.substring(2));
        }
        if (declaration.charAt(0) != '/') {
            throw new IllegalArgumentException("servlet path spec '" + declaration
                    + "' must start with '/' or '*.', or be empty");
        }
        if (declaration.endsWith("/*")) {
            return new PrefixPathSpec(declaration.substring(0, declaration.length() - 2));
        }
        return new ExactPathSpec(declaration);
    }
}
