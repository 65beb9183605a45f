package io.wharf.client.internal.route;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.wharf.client.ProxyException;
import io.wharf.http.BadMessageException;
import io.wharf.http.ComplianceViolation;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpParserListener;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.io.EndPoint;

/**
 * A tunnel through an HTTP proxy (RFC 9110 section 9.3.6): sends
 * {@code CONNECT host:port HTTP/1.1} (with {@code Proxy-Authorization: Basic} when the proxy
 * has credentials) and reads the answer's head with the strict HTTP/1 parser. A 2xx opens the
 * tunnel; any other status (407 without or with refused credentials — some proxies answer
 * 401 to refused ones —, 403, 502...) fails the opening with a {@link ProxyException} naming the proxy, the status and reason, and for a 407
 * the challenge; a malformed answer fails it saying what is wrong.
 *
 * <p>Threads and buffers: see {@link TunnelConnection}; the parser is this connection's, used
 * by the reading thread only, and keeps no reference to the network buffer.
 */
final class HttpConnectTunnel extends TunnelConnection implements HttpParserListener.Response {

    private final String authority;
    private final HttpParser parser;
    private final List<String> challenges = new ArrayList<>(1);
    private int status;
    private String reason;
    private boolean headComplete;
    private boolean interimComplete;
    private BadMessageException bad;

    HttpConnectTunnel(EndPoint endPoint, RouteOpening<?> opening) {
        super(endPoint, opening);
        this.authority = opening.origin().host() + ":" + opening.origin().port();
        this.parser = new HttpParser(this, opening.settings().responseLimits(), HttpCompliance.RFC9112,
                ComplianceViolation.Listener.NONE);
        // The head is all that is read: a 2xx to CONNECT has no content, and a refusal's is not wanted.
        parser.setHeadResponse(true);
    }

    @Override
    protected void start() {
        StringBuilder request = new StringBuilder(128)
                .append("CONNECT ").append(authority).append(" HTTP/1.1\r\n")
                .append("Host: ").append(authority).append("\r\n");
        String authorization = ForwardProxy.basicAuthorization(proxy);
        if (authorization != null) {
            request.append(HttpHeader.PROXY_AUTHORIZATION.asString()).append(": ").append(authorization).append("\r\n");
        }
        String agent = opening.settings().userAgent();
        if (agent != null) {
            request.append("User-Agent: ").append(agent).append("\r\n");
        }
        send(request.append("\r\n").toString().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected String asked() {
        return "CONNECT " + authority;
    }

    @Override
    protected boolean parse(ByteBuffer bytes) throws ProxyException {
        while (true) {
            boolean stopped = parser.parseNext(bytes);
            if (bad != null) {
                throw new ProxyException(proxy, "proxy " + proxy + " answered " + asked() + " with a malformed response: "
                        + bad.getReason(), bad);
            }
            if (interimComplete) {
                // An interim answer (1xx) ended: the final one follows.
                interimComplete = false;
                parser.reset();
                parser.setHeadResponse(true);
                continue;
            }
            if (headComplete && status / 100 == 1) {
                headComplete = false;
                continue;
            }
            if (!headComplete) {
                if (stopped && bytes.hasRemaining()) {
                    continue;
                }
                return true;
            }
            break;
        }
        if (status / 100 != 2) {
            boolean credentials = status == HttpStatus.PROXY_AUTHENTICATION_REQUIRED_407 || status == HttpStatus.UNAUTHORIZED_401;
            throw new ProxyException(proxy, ForwardProxy.refusal(proxy, asked(), status, reason, credentials, challenges));
        }
        established(bytes);
        return false;
    }

    // ---- the parser's events, during parse() ----

    @Override
    public void startResponse(HttpVersion version, int code, String text) {
        status = code;
        reason = text;
    }

    @Override
    public void parsedHeader(HttpField field) {
        if (field.getHeader() == HttpHeader.PROXY_AUTHENTICATE) {
            challenges.add(field.getValue());
        }
    }

    @Override
    public boolean headerComplete() {
        headComplete = true;
        return true;
    }

    @Override
    public boolean content(ByteBuffer content) {
        return false;
    }

    @Override
    public boolean messageComplete() {
        interimComplete = status / 100 == 1;
        return true;
    }

    @Override
    public void badMessage(BadMessageException failure) {
        bad = failure;
    }

    @Override
    public void earlyEOF() {
        // Not told: the tunnel fails on the end of input itself.
    }
}
