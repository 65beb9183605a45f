package io.wharf.webapp.descriptor;

import java.util.Map;
import java.util.Optional;

/**
 * {@code <cookie-config>} of the session cookie.
 *
 * @param name {@code <name>}
 * @param domain {@code <domain>}
 * @param path {@code <path>}
 * @param comment {@code <comment>} (deprecated in Servlet 6.0, still read)
 * @param httpOnly {@code <http-only>}
 * @param secure {@code <secure>}
 * @param maxAge {@code <max-age>} in seconds
 * @param attributes {@code <attribute>}s (Servlet 6.0), name to value in document order
 */
public record CookieConfig(
    Optional<String> name,
    Optional<String> domain,
    Optional<String> path,
    Optional<String> comment,
    Optional<Boolean> httpOnly,
    Optional<Boolean> secure,
    Optional<Integer> maxAge,
    Map<String, String> attributes) {

    /** Copies the map. */
    public CookieConfig {
        attributes = Copies.orderedMap(attributes);
    }
}
