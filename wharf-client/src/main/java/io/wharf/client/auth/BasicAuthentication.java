package io.wharf.client.auth;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

import io.wharf.client.Authentication;
import io.wharf.client.AuthenticationStore;
import io.wharf.client.Challenge;
import io.wharf.client.Request;
import io.wharf.client.Response;
import io.wharf.http.HttpHeader;

/**
 * Basic authentication (RFC 7617): the user name and password, UTF-8 and base64-encoded, in
 * the {@code Authorization} field. They travel in clear text, so use it over https or on
 * trusted networks; when a server offers Digest too, the client answers Digest. Immutable; any
 * thread.
 */
public final class BasicAuthentication extends AbstractAuthentication {

    private final String value;

    /**
     * @param uri the URI prefix the credentials are for
     * @param realm the realm, or {@link #ANY_REALM}
     * @param user the user name; it must not contain {@code :}
     * @param password the password
     */
    public BasicAuthentication(URI uri, String realm, String user, String password) {
        super("Basic", uri, realm);
        this.value = headerValue(user, password);
    }

    /**
     * @return a result that sends these credentials with every request under {@code uri},
     *     from the first on: add it with {@link AuthenticationStore#addAuthenticationResult}
     */
    public static Authentication.Result preemptive(URI uri, String user, String password) {
        return new BasicResult(Objects.requireNonNull(uri, "uri"), headerValue(user, password));
    }

    private static String headerValue(String user, String password) {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (user.indexOf(':') >= 0) {
            throw new IllegalArgumentException("a Basic user name cannot contain ':' (RFC 7617)");
        }
        String pair = user + ":" + password;
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public Authentication.Result authenticate(Request request, Response response, Challenge challenge) {
        return new BasicResult(getURI(), value);
    }

    /** The header value, ready to apply. */
    private record BasicResult(URI uri, String value) implements Authentication.Result {

        @Override
        public URI getURI() {
            return uri;
        }

        @Override
        public void apply(Request request) {
            request.putHeader(HttpHeader.AUTHORIZATION.asString(), value);
        }

        @Override
        public String toString() {
            return "BasicResult[" + uri + "]";
        }
    }
}
