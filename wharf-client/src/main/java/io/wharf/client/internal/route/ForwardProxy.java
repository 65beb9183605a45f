package io.wharf.client.internal.route;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import io.wharf.client.Origin;
import io.wharf.client.Proxy;
import io.wharf.client.ProxyException;
import io.wharf.client.Response;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;

/**
 * How plain {@code http} requests go through an HTTP proxy (RFC 9112 section 3.2.2): the
 * connection goes to the proxy, each request names its target in absolute form
 * ({@code GET http://origin:port/path HTTP/1.1}) and carries {@code Proxy-Authorization: Basic}
 * when the proxy has credentials. As a response listener (first of each exchange's) it turns a
 * {@code 407 Proxy Authentication Required} — which only a proxy sends — into a
 * {@link ProxyException} naming the proxy and its challenge; any other answer is the origin's
 * (or the proxy's on its behalf) and reaches the application as it is.
 *
 * <p>One per destination; immutable. Its methods are called by the writing thread (target,
 * fields) and the reading thread (the listener). Holds no buffer.
 */
public final class ForwardProxy implements Response.Listener {

    private final Proxy proxy;
    private final String authorization;

    private ForwardProxy(Proxy proxy) {
        this.proxy = proxy;
        this.authorization = basicAuthorization(proxy);
    }

    /** @return the forwarding of requests to {@code origin} through {@code proxy}, or null when they are not forwarded (direct, a tunnel) */
    public static ForwardProxy of(Origin origin, Proxy proxy) {
        if (proxy == null || proxy.getKind() != Proxy.Kind.HTTP || !"http".equals(origin.scheme())) {
            return null;
        }
        return new ForwardProxy(proxy);
    }

    /** @return {@code Basic base64(user:password)} in UTF-8, or null when {@code proxy} has no credentials */
    static String basicAuthorization(Proxy proxy) {
        if (!proxy.hasCredentials()) {
            return null;
        }
        String pair = proxy.getUsername() + ":" + proxy.getPassword();
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    /** @return the absolute-form target of a request to {@code origin} whose origin-form target is {@code originForm} */
    public String requestTarget(Origin origin, String originForm) {
        return origin.scheme() + "://" + origin.authority() + originForm;
    }

    /** Adds {@code Proxy-Authorization} when the proxy has credentials and the application set none. */
    public void authorize(HttpFields.Mutable fields) {
        if (authorization != null && !fields.contains(HttpHeader.PROXY_AUTHORIZATION)) {
            fields.put(HttpHeader.PROXY_AUTHORIZATION, authorization);
        }
    }

    @Override
    public void onHeaders(Response response) {
        if (response.getStatus() == HttpStatus.PROXY_AUTHENTICATION_REQUIRED_407) {
            response.abort(new ProxyException(proxy, refusal(proxy, response.getRequest().getMethod() + " "
                    + response.getRequest().getURI(), response.getStatus(), response.getReason(), true,
                    response.getHeaders().getValuesList(HttpHeader.PROXY_AUTHENTICATE))));
        }
    }

    /**
     * @param credentials whether the answer is about the proxy's credentials (a 407; from some
     *     proxies, tinyproxy for one, a 401 to CONNECT)
     * @return the message of a proxy's refusal: who refused what, its answer, and what the
     *     credentials were when the answer is about them
     */
    static String refusal(Proxy proxy, String asked, int status, String reason, boolean credentials,
                          List<String> challenges) {
        StringBuilder message = new StringBuilder("proxy ").append(proxy).append(" refused ").append(asked)
                .append(": ").append(status);
        if (reason != null && !reason.isEmpty()) {
            message.append(' ').append(reason);
        }
        if (credentials) {
            message.append(proxy.hasCredentials()
                    ? " (it refused the credentials of " + proxy.getUsername() + ")"
                    : " (no credentials were set: Proxy.withCredentials)");
            if (!challenges.isEmpty()) {
                message.append(", challenge: ").append(String.join(", ", challenges));
            }
        }
        return message.toString();
    }

    @Override
    public String toString() {
        return "ForwardProxy[" + proxy + "]";
    }
}
