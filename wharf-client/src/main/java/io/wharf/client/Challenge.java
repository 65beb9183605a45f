package io.wharf.client;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One challenge of a {@code WWW-Authenticate} field (RFC 9110 section 11.6.1): a scheme and
 * either a token68 or named parameters. Made by the client when a 401 arrives and handed to
 * the matching {@link Authentication}; immutable, any thread.
 *
 * @param scheme the scheme as the server spelled it, e.g. {@code Digest}
 * @param token68 the token68 of schemes that send one (Negotiate), or null
 * @param parameters the parameters, names in lower case, values unquoted; the first of a
 *     repeated name is kept
 */
public record Challenge(String scheme, String token68, Map<String, String> parameters) {

    public Challenge {
        Objects.requireNonNull(scheme, "scheme");
        parameters = Map.copyOf(parameters);
    }

    /** @return whether the scheme is {@code scheme}, in any ASCII case */
    public boolean is(String scheme) {
        return this.scheme.equalsIgnoreCase(scheme);
    }

    /** @return the value of the parameter {@code name} (any case), or null */
    public String parameter(String name) {
        return parameters.get(name.toLowerCase(Locale.ROOT));
    }

    /** @return the {@code realm} parameter, or null */
    public String realm() {
        return parameter("realm");
    }

    /** @return whether the challenge says {@code stale=true}: the credentials were right, the nonce is old */
    public boolean isStale() {
        return "true".equalsIgnoreCase(parameter("stale"));
    }

    @Override
    public String toString() {
        // Parameters may carry nonces: enough to tell challenges apart in a log.
        return "Challenge[" + scheme + (realm() == null ? "" : " realm=" + realm()) + "]";
    }
}
