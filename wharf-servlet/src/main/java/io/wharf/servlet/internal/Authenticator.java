package io.wharf.servlet.internal;

import java.io.IOException;

import jakarta.servlet.ServletException;

import io.wharf.servlet.security.AuthenticatedUser;

/**
 * One login method of Servlet 6.1 section 13.6: finds the user a request already carries
 * credentials for, and asks a client without them to log in. Stateless but for what it keeps
 * for the whole context (DIGEST's nonces); any request thread.
 */
interface Authenticator {

    /** @return the value of {@code getAuthType()} for users it authenticated */
    String authType();

    /** @return the user the request's credentials (header, certificate, session) stand for, or null; writes nothing */
    AuthenticatedUser authenticate(ServletExchange exchange);

    /** Answers a request that needs a user and has none: a 401 challenge, or FORM's login page. */
    void challenge(ServletExchange exchange) throws IOException, ServletException;
}
