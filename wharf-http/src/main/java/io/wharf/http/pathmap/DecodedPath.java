package io.wharf.http.pathmap;

/** Checks on the decoded paths handed to the specs; stateless. */
final class DecodedPath {

    private DecodedPath() {
    }

    /**
     * @return {@code path}, when it starts with {@code /}
     * @throws IllegalArgumentException otherwise; the message does not echo the path, which
     *     comes from the peer
     */
    static String requireAbsolute(String path) {
        if (path.isEmpty() || path.charAt(0) != '/') {
            throw new IllegalArgumentException("a path to match must start with '/' (got one of length "
                    + path.length() + ")");
        }
        return path;
    }

}
