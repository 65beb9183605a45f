package io.wharf.servlet.internal;

import io.wharf.servlet.security.AuthenticatedUser;

/**
 * The user of one request (section 13.3): found lazily from what the request carries (the
 * context's login method), or set by a login, cleared by a logout. One thread at a time.
 */
final class RequestAuthentication {

    private final ServletExchange exchange;
    private boolean resolved;
    private AuthenticatedUser user;
    private String authType;

    RequestAuthentication(ServletExchange exchange) {
        this.exchange = exchange;
    }

    AuthenticatedUser user() {
        if (!resolved) {
            resolved = true;
            ContextSecurity security = exchange.context().security();
            if (security != null) {
                AuthenticatedUser found = security.authenticator().authenticate(exchange);
                if (found != null) {
                    user = found;
                    authType = security.authenticator().authType();
                }
            }
        }
        return user;
    }

    String authType() {
        return user() == null ? null : authType;
    }

    void set(AuthenticatedUser user, String authType) {
        this.resolved = true;
        this.user = user;
        this.authType = authType;
    }

    void clear() {
        resolved = true;
        user = null;
        authType = null;
    }
}
