package io.wharf.servlet.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import jakarta.servlet.http.HttpServletResponse;

import io.wharf.http.AuthField;
import io.wharf.http.HttpHeader;
import io.wharf.servlet.security.AuthenticatedUser;
import io.wharf.servlet.security.LoginService;

/**
 * BASIC login (RFC 7617): the user and password in each request's {@code Authorization}
 * header, read as UTF-8 (the challenge says {@code charset="UTF-8"}). Immutable.
 */
final class BasicLogin implements Authenticator {

    private final LoginService users;
    private final String realm;

    BasicLogin(LoginService users, String realm) {
        this.users = users;
        this.realm = realm;
    }

    @Override
    public String authType() {
        return "BASIC";
    }

    @Override
    public AuthenticatedUser authenticate(ServletExchange exchange) {
        AuthField credentials = AuthField.first(exchange.request().core().getHeaders().getValuesList(HttpHeader.AUTHORIZATION), "Basic");
        if (credentials == null || credentials.token68() == null) {
            return null;
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(credentials.token68()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException x) {
            return null;
        }
        int colon = decoded.indexOf(':');
        if (colon < 0) {
            return null;
        }
        return users.login(decoded.substring(0, colon), decoded.substring(colon + 1));
    }

    @Override
    public void challenge(ServletExchange exchange) throws IOException {
        HttpServletResponse response = exchange.response();
        response.setHeader(HttpHeader.WWW_AUTHENTICATE.asString(), "Basic realm=\"" + quoted(realm) + "\", charset=\"UTF-8\"");
        response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
    }

    /** @return {@code text} with quotes and backslashes escaped for a quoted-string */
    static String quoted(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
