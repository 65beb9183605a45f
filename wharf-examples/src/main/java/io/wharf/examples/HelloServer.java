package io.wharf.examples;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;

/** The shortest embedding: a server on port 8080 answering every request with text. */
public final class HelloServer {

    private HelloServer() {
    }

    public static void main(String[] args) throws Exception {
        Server server = new Server(8080, new HttpConnectionFactory());
        server.setHandler(Handler.of((request, response, callback) -> {
            response.getHeaders().put("Content-Type", "text/plain;charset=utf-8");
            Response.write(response, true, "Hello from Wharf\n", callback);
            return true;
        }));
        server.setStopAtShutdown(true);
        server.start();
        server.join();
    }
}
