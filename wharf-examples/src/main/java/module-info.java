/** Runnable examples of Wharf, and the demo. */
module io.wharf.examples {
    requires io.wharf.server;
    requires io.wharf.client;
    requires io.wharf.http2;
    requires io.wharf.websocket.server;
    requires io.wharf.websocket.client;
    requires io.wharf.servlet;
    requires io.wharf.jsp;
    requires io.wharf.login;

    exports io.wharf.examples;
}
