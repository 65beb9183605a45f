package io.wharf.client.internal;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import io.wharf.client.Response;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;

/**
 * The rules of following a redirect (RFC 9110 section 15.4, as browsers apply them): which
 * statuses redirect, where the {@code Location} leads (resolved against the request's URI),
 * and with which method and content the next request goes.
 *
 * <pre>
 *  301, 302  POST becomes GET without content; other methods are kept, with their content
 *  303       GET without content (HEAD stays HEAD)
 *  307, 308  method and content kept
 * </pre>
 *
 * Static and stateless; any thread.
 */
final class Redirects {

    /** Where a redirect leads and how. */
    record Target(URI uri, String method, boolean keepContent) {
    }

    private Redirects() {
    }

    /** @return whether {@code status} is a redirect the client may follow */
    static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /**
     * @param requestUri the URI of the request that was redirected
     * @param method its method
     * @param response the redirect, with its head
     * @return the target, or null when the response has no {@code Location} (it is then final)
     * @throws IOException when the {@code Location} is not a URI the client can follow
     */
    static Target target(URI requestUri, String method, Response response) throws IOException {
        String location = response.getHeaders().get(HttpHeader.LOCATION);
        if (location == null) {
            return null;
        }
        URI uri = resolve(requestUri, location.strip(), response);
        int status = response.getStatus();
        boolean post = HttpMethod.POST.is(method);
        if (status == 303 && !HttpMethod.HEAD.is(method) || (status == 301 || status == 302) && post) {
            return new Target(uri, HttpMethod.GET.asString(), false);
        }
        return new Target(uri, method, true);
    }

    private static URI resolve(URI base, String location, Response response) throws IOException {
        URI reference;
        try {
            reference = new URI(encodeIllegal(location));
        } catch (URISyntaxException x) {
            throw badLocation(response, "it is not a URI reference (" + x.getReason() + ")", x);
        }
        URI resolved = base.resolve(reference);
        String scheme = resolved.getScheme() == null ? null : resolved.getScheme().toLowerCase(Locale.ROOT);
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw badLocation(response, "the client follows http and https only", null);
        }
        if (resolved.getHost() == null || resolved.getHost().isEmpty()) {
            throw badLocation(response, "it names no host", null);
        }
        int port = resolved.getPort();
        if (port == 0 || port > 65535) {
            throw badLocation(response, "its port is out of range", null);
        }
        String text = scheme + "://" + resolved.getHost() + (port > 0 ? ":" + port : "") + rawPathOrRoot(resolved)
                + (resolved.getRawQuery() == null ? "" : "?" + resolved.getRawQuery());
        try {
            // No user information and no fragment: neither is ever sent.
            return new URI(text);
        } catch (URISyntaxException x) {
            throw badLocation(response, "it cannot be made absolute (" + x.getReason() + ")", x);
        }
    }

    private static String rawPathOrRoot(URI uri) {
        String path = uri.getRawPath();
        return path == null || path.isEmpty() ? "/" : path;
    }

    /**
     * Percent-encodes what servers send raw but a URI may not hold: spaces, controls, bytes
     * beyond ASCII and the few ASCII characters RFC 3986 excludes. {@code %} is left alone.
     */
    static String encodeIllegal(String location) {
        StringBuilder encoded = null;
        for (int i = 0; i < location.length(); i++) {
            char c = location.charAt(i);
            boolean legal = c > 0x20 && c < 0x7F && "\"<>\\^`{|}".indexOf(c) < 0;
            if (legal) {
                if (encoded != null) {
                    encoded.append(c);
                }
                continue;
            }
            if (encoded == null) {
                encoded = new StringBuilder(location.length() + 16).append(location, 0, i);
            }
            int end = Character.isHighSurrogate(c) && i + 1 < location.length() ? i + 2 : i + 1;
            for (byte b : location.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                encoded.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
            i = end - 1;
        }
        return encoded == null ? location : encoded.toString();
    }

    private static IOException badLocation(Response response, String why, Throwable cause) {
        // The location is quoted escaped: it is the server's text.
        return new IOException("cannot follow the " + response.getStatus() + " redirect of " + response.getRequest()
                + " to Location " + quote(response.getHeaders().get(HttpHeader.LOCATION)) + ": " + why, cause);
    }

    /** @return {@code text} in quotes, cut at 200 characters, control characters and non-ASCII escaped */
    static String quote(String text) {
        StringBuilder quoted = new StringBuilder("\"");
        for (int i = 0; i < text.length() && i < 200; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
                quoted.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append(text.length() > 200 ? "...\"" : "\"").toString();
    }
}
