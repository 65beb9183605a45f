package io.wharf.websocket.servlet;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.servlet.CoreHandoff;
import io.wharf.util.InvocationType;
import io.wharf.websocket.server.WebSocketCreator;
import io.wharf.websocket.server.WebSocketUpgradeHandler;

/**
 * A servlet that turns WebSocket opening handshakes into sessions of Wharf's WebSocket API: map
 * it like any servlet ({@code /chat/*}), behind the context's filters and security
 * constraints, and give it a {@link WebSocketCreator} — in the constructor, or by overriding
 * {@link #creator()} (the creator pattern: the creator sees each handshake's request, may pick
 * a subprotocol, and makes the endpoint). The handshake itself (checks, 101 or HTTP/2's 200,
 * extensions) is the core {@link WebSocketUpgradeHandler}'s, configured through
 * {@link #getUpgradeHandler()}.
 *
 * <pre>{@code
 * context.addServlet(new WebSocketServlet((request, response) -> new EchoEndpoint()), "/echo");
 * }</pre>
 *
 * <p>A filter that wraps the response cannot stand in front of a handshake: the upgrade needs
 * the container's own response, and such a request fails with a {@link ServletException} that
 * says so. Filters that only look or set headers are fine.
 *
 * <p><b>Threads.</b> The creator runs on the request's (virtual) thread and may block; the
 * sessions run as the core API says.
 */
public class WebSocketServlet extends HttpServlet {

    /** The path the core handler maps the creator to; the servlet shows it that path for every request it takes. */
    private static final String PATH = "/";

    private final WebSocketUpgradeHandler upgrades = new WebSocketUpgradeHandler(InvocationType.BLOCKING);
    private final WebSocketCreator creator;

    /** @param creator makes an endpoint for each accepted handshake */
    public WebSocketServlet(WebSocketCreator creator) {
        this.creator = java.util.Objects.requireNonNull(creator, "creator");
    }

    /** For subclasses that override {@link #creator()}. */
    protected WebSocketServlet() {
        this.creator = null;
    }

    /** @return the creator of endpoints; subclasses without a constructor argument override it */
    protected WebSocketCreator creator() {
        if (creator == null) {
            throw new IllegalStateException(getClass().getName() + " needs a WebSocketCreator: pass one to the constructor "
                + "or override creator()");
        }
        return creator;
    }

    /**
     * @return the servlet request of a handshake, for a creator that wants its servlet path,
     *     session or user: {@code WebSocketServlet.servletRequestOf(upgradeRequest).getPathInfo()}
     */
    public static HttpServletRequest servletRequestOf(io.wharf.websocket.server.UpgradeRequest request) {
        return CoreHandoff.servletRequestOf(request.request());
    }

    /** @return the core handler that runs the handshakes: origin check, extensions, session limits */
    public WebSocketUpgradeHandler getUpgradeHandler() {
        return upgrades;
    }

    @Override
    public void init() throws ServletException {
        upgrades.addMapping(PATH, creator());
        try {
            upgrades.start();
        } catch (Exception x) {
            throw new ServletException("the WebSocket upgrade handler of " + getServletName() + " failed to start", x);
        }
    }

    @Override
    public void destroy() {
        try {
            upgrades.stop();
        } catch (Exception x) {
            log("the WebSocket upgrade handler failed to stop", x);
        }
    }

    /** Every method goes to the handshake: a GET (or HTTP/2 CONNECT) that is one becomes a session, anything else gets the handler's 4xx. */
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        if (!CoreHandoff.canHandOff(request, response)) {
            throw new ServletException("a WebSocket handshake needs the container's own response: a filter in front of "
                + getServletName() + " wrapped it");
        }
        if (!CoreHandoff.handle(request, response, upgrades, PATH)) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }
}
