package io.wharf.examples;

import java.nio.file.Path;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.handler.DefaultHandler;
import io.wharf.server.handler.PathMappingsHandler;
import io.wharf.server.handler.SizeLimitHandler;
import io.wharf.server.handler.StatisticsHandler;
import io.wharf.server.handler.context.ContextHandler;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.server.handler.gzip.GzipHandler;
import io.wharf.server.handler.log.NcsaRequestLog;
import io.wharf.server.handler.log.RequestLogHandler;
import io.wharf.server.handler.log.RequestLogOutput;
import io.wharf.server.handler.resource.ResourceHandler;
import io.wharf.server.http1.HttpConnectionFactory;

/**
 * The standard handlers together: {@code java ... io.wharf.examples.HandlersExample DIR}
 * serves DIR's files under {@code /static/}, an API under {@code /api/} routed by path
 * specs, with gzip, size limits, statistics and an NCSA request log on standard output.
 */
public final class HandlersExample {

    private HandlersExample() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args.length > 0 ? args[0] : ".");
        Server server = new Server(8080, new HttpConnectionFactory());

        PathMappingsHandler api = new PathMappingsHandler();
        api.addMapping("/users/{id}", Handler.of((request, response, callback) -> {
            String id = PathMappingsHandler.getParameters(request).get("id");
            Response.write(response, true, "user " + id + "\n", callback);
            return true;
        }));
        api.addMapping("/health", Handler.of((request, response, callback) -> {
            Response.write(response, true, "ok\n", callback);
            return true;
        }));

        ContextHandlerCollection contexts = new ContextHandlerCollection(
                new ContextHandler("/api", new SizeLimitHandler(64 * 1024, -1, api)),
                new ContextHandler("/static", new ResourceHandler(directory)));
        StatisticsHandler statistics = new StatisticsHandler(new GzipHandler(
                new Handler.Sequence(contexts, new DefaultHandler())));
        server.setHandler(new RequestLogHandler(new NcsaRequestLog(RequestLogOutput.of(System.out)), statistics));

        server.setStopAtShutdown(true);
        server.start();
        server.join();
    }
}
