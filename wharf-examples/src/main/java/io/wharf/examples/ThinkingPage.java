package io.wharf.examples;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HttpStatus;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The demo's stand-in for a page that takes time to make (a database query, a template): the
 * request for {@code path} is handed to the child only after {@code think}, on the server's
 * scheduler, without holding a thread meanwhile. It is what gives 103 Early Hints something to
 * win: the browser fetches the announced resources while the page is being made.
 */
final class ThinkingPage extends Handler.Wrapper {

    private final String path;
    private final Duration think;

    ThinkingPage(String path, Duration think, Handler child) {
        super(child);
        this.path = path;
        this.think = think;
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!path.equals(request.getPathInContext())) {
            return super.handle(request, response, callback);
        }
        getServer().getScheduler().schedule(() -> {
            try {
                if (!super.handle(request, response, callback)) {
                    Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404, null);
                }
            } catch (Throwable x) {
                Response.writeError(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500, null, x);
            }
        }, think.toMillis(), TimeUnit.MILLISECONDS);
        return true;
    }
}
