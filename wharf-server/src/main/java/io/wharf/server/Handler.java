package io.wharf.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.util.component.LifeCycle;

/**
 * Handles requests: {@link #handle} returns true to take a request — and then completes the
 * callback exactly once, now or later, after the response is written — or false to pass it
 * on (the server answers 404 when nothing takes it).
 *
 * <p><b>Threads.</b> A handler declares its {@link #invocationType()}. A NON_BLOCKING handler
 * promises never to block in {@code handle} or in what it calls inline, so the server calls
 * it on the thread that read the request — often a selector thread — with the request still
 * hot in cache. A BLOCKING handler (the default) is never called on a selector thread: the
 * server hands it to the thread pool (or a virtual thread). Wrappers and sequences declare
 * the combined type of their children.
 *
 * <p><b>Tree.</b> Handlers form a tree of {@link Wrapper}s (one child), {@link Sequence}s
 * (children tried in order) and leaves; the tree starts and stops with the server.
 */
public interface Handler extends LifeCycle, Invocable {

    /**
     * @param request the request; its content is a source to read
     * @param response the response to write
     * @param callback completed once when the response is done (succeeded) or has failed
     * @return true when this handler took the request (and will complete the callback)
     * @throws Exception anything; the server answers 500 if nothing was committed yet
     */
    boolean handle(Request request, Response response, Callback callback) throws Exception;

    /** @return the server, once the handler is attached to one */
    Server getServer();

    /** Attaches the handler (and its children) to a server. */
    void setServer(Server server);

    /** A handler made from a lambda, for the common case of a leaf. */
    @FunctionalInterface
    interface Function {
        boolean handle(Request request, Response response, Callback callback) throws Exception;
    }

    /** @return a BLOCKING leaf handler running {@code function} */
    static Handler of(Function function) {
        return of(InvocationType.BLOCKING, function);
    }

    /** @return a leaf handler of the given type running {@code function} */
    static Handler of(InvocationType type, Function function) {
        return new Abstract(type) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                return function.handle(request, response, callback);
            }
        };
    }

    /** The base of handlers: a lifecycle, a server and a declared invocation type. */
    abstract class Abstract extends ContainerLifeCycle implements Handler {
        private final InvocationType invocationType;
        private volatile Server server;

        /** A BLOCKING handler. */
        protected Abstract() {
            this(InvocationType.BLOCKING);
        }

        protected Abstract(InvocationType invocationType) {
            this.invocationType = invocationType;
        }

        @Override
        public InvocationType invocationType() {
            return invocationType;
        }

        @Override
        public Server getServer() {
            return server;
        }

        @Override
        public void setServer(Server server) {
            this.server = server;
            for (Handler child : children()) {
                child.setServer(server);
            }
        }

        /** @return the direct child handlers (none for a leaf) */
        protected List<Handler> children() {
            return List.of();
        }
    }

    /** A handler with one child that it decorates or passes requests to. */
    class Wrapper extends Abstract {
        private volatile Handler handler;

        public Wrapper() {
        }

        public Wrapper(Handler handler) {
            setHandler(handler);
        }

        /** @return the child, or null */
        public Handler getHandler() {
            return handler;
        }

        /** Sets the child; while running, the new child is started and the old one stopped. */
        public void setHandler(Handler handler) {
            Handler old = this.handler;
            if (handler != null) {
                handler.setServer(getServer());
            }
            this.handler = handler;
            if (old != null && old != handler) {
                removeBean(old);
            }
            addBean(handler, true);
        }

        @Override
        public InvocationType invocationType() {
            Handler child = handler;
            return child == null ? InvocationType.NON_BLOCKING : child.invocationType();
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            Handler child = handler;
            return child != null && child.handle(request, response, callback);
        }

        @Override
        protected List<Handler> children() {
            Handler child = handler;
            return child == null ? List.of() : List.of(child);
        }
    }

    /** Children tried in order until one takes the request. */
    class Sequence extends Abstract {
        private final List<Handler> handlers = new CopyOnWriteArrayList<>();

        public Sequence(Handler... handlers) {
            for (Handler handler : handlers) {
                addHandler(handler);
            }
        }

        /** Appends a child. */
        public void addHandler(Handler handler) {
            handler.setServer(getServer());
            handlers.add(handler);
            addBean(handler, true);
        }

        /** Removes a child. */
        public void removeHandler(Handler handler) {
            if (handlers.remove(handler)) {
                removeBean(handler);
            }
        }

        /** @return the children, in order */
        public List<Handler> getHandlers() {
            return List.copyOf(handlers);
        }

        @Override
        public InvocationType invocationType() {
            InvocationType type = InvocationType.NON_BLOCKING;
            for (Handler handler : handlers) {
                type = type.combine(handler.invocationType());
            }
            return type;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            for (Handler handler : handlers) {
                if (handler.handle(request, response, callback)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        protected List<Handler> children() {
            return new ArrayList<>(handlers);
        }
    }
}
