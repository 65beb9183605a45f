package io.wharf.server.handler.context;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http.UriPath;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;

/**
 * A handler that mounts its child at a context path — {@code /} for the root or a path like
 * {@code /app} — optionally only for some virtual hosts, and gives the child a
 * {@link Context}: attributes, a class loader, a temporary directory and a display name.
 *
 * <p><b>Matching.</b> A request is this context's when its {@linkplain Request#getPathInContext()
 * path} is the context path or continues it with {@code /} ({@code /app}, {@code /app/},
 * {@code /app/x}; never {@code /application}) and it passes the
 * {@linkplain #setVirtualHosts(List) virtual hosts}. Other requests are passed on (false). The
 * bare context path {@code /app} is redirected to {@code /app/} (301 for GET and HEAD, 308
 * otherwise, query kept) unless {@link #setServeBareContextPath(boolean)} says to serve it with
 * the path in context {@code /}.
 *
 * <p><b>What the child sees.</b> A request whose {@link Request#getContextPath()} is the
 * context path ({@code ""} for the root) and whose {@link Request#getPathInContext()} is the
 * rest, starting with {@code /}. {@link #getContext(Request)} finds the context from any
 * request below it; a request attribute the request itself does not have is looked up in the
 * context's attributes.
 *
 * <p><b>Threads.</b> Configure before starting; {@link #setAvailable(boolean)} and the context
 * attributes may change at any time from any thread. While the child handles a request, and
 * while a demand callback of that request runs, the thread's context class loader is the
 * {@linkplain #setClassLoader(ClassLoader) context's} (when one is set) and is restored after.
 * A context that is not available answers 503. The invocation type is the child's.
 */
public class ContextHandler extends Handler.Wrapper {

    private final Context context = new Context();
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private volatile String contextPath = "";
    private volatile VirtualHosts virtualHosts = VirtualHosts.ANY;
    private volatile ClassLoader classLoader;
    private volatile Path tempDirectory;
    private volatile String displayName;
    private volatile boolean available = true;
    private volatile boolean serveBareContextPath;

    /** A root context ({@code /}) without a child yet. */
    public ContextHandler() {
    }

    /** A context at {@code contextPath} without a child yet. */
    public ContextHandler(String contextPath) {
        setContextPath(contextPath);
    }

    /** A context at {@code contextPath} around {@code handler}. */
    public ContextHandler(String contextPath, Handler handler) {
        this(contextPath);
        setHandler(handler);
    }

    /**
     * @return the context that handles {@code request} (the innermost one when contexts
     *     nest), found through its {@link Request.Wrapper}s; null when no context is above it
     */
    public static Context getContext(Request request) {
        Request current = request;
        while (current instanceof Request.Wrapper wrapper) {
            if (wrapper instanceof ContextRequest contextRequest) {
                return contextRequest.getContext();
            }
            current = wrapper.getWrapped();
        }
        return null;
    }

    /** @return the context path as set: {@code /} for the root, else like {@code /app} */
    public String getContextPath() {
        String path = contextPath;
        return path.isEmpty() ? "/" : path;
    }

    /**
     * Sets the decoded context path: {@code /} (or {@code ""}) for the root, else a path
     * starting with {@code /}, not ending with one, without empty or dot segments.
     *
     * @throws IllegalArgumentException naming the path when it is not such a path
     */
    public void setContextPath(String contextPath) {
        this.contextPath = normalizeContextPath(contextPath);
    }

    static String normalizeContextPath(String contextPath) {
        if (contextPath == null || contextPath.isEmpty() || contextPath.equals("/")) {
            return "";
        }
        if (contextPath.charAt(0) != '/' || contextPath.endsWith("/")) {
            throw new IllegalArgumentException("context path '" + contextPath
                    + "' must start with '/' and not end with one (or be '/')");
        }
        if (contextPath.contains("//") || contextPath.contains("/./") || contextPath.contains("/../")
                || contextPath.endsWith("/.") || contextPath.endsWith("/..")) {
            throw new IllegalArgumentException("context path '" + contextPath + "' has an empty or dot segment");
        }
        for (int i = 0; i < contextPath.length(); i++) {
            char c = contextPath.charAt(i);
            if (c == '*' || c == '?' || c == '#' || c == ';' || c < 0x20 || c == 0x7F) {
                throw new IllegalArgumentException("context path '" + contextPath + "' has the forbidden character at index " + i);
            }
        }
        return contextPath;
    }

    /** @return the context path as requests report it: {@code ""} for the root */
    String contextPathInRequest() {
        return contextPath;
    }

    /** @return the virtual host declarations, as set */
    public List<String> getVirtualHosts() {
        return virtualHosts.declarations();
    }

    /**
     * Restricts this context to requests for some hosts or connectors: exact host names
     * ({@code example.com}), one-label wildcards ({@code *.example.com}) and connector names
     * ({@code @internal}); an empty list serves every request. See the class documentation of
     * the rules; hosts compare case-insensitively.
     *
     * @throws IllegalArgumentException naming a malformed declaration
     */
    public void setVirtualHosts(List<String> virtualHosts) {
        this.virtualHosts = virtualHosts == null || virtualHosts.isEmpty() ? VirtualHosts.ANY : VirtualHosts.of(virtualHosts);
    }

    /** @return whether the virtual hosts are restricted */
    boolean hasVirtualHosts() {
        return !virtualHosts.isEmpty();
    }

    /** @return the class loader set while the child runs, or null for none */
    public ClassLoader getClassLoader() {
        return classLoader;
    }

    /** Sets the class loader made the thread's context class loader while the child runs; null for none. */
    public void setClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /** @return the context's temporary directory, or null */
    public Path getTempDirectory() {
        return tempDirectory;
    }

    /** Sets the context's temporary directory; it is created, when missing, as the context starts. */
    public void setTempDirectory(Path tempDirectory) {
        this.tempDirectory = tempDirectory;
    }

    /** @return the display name, or the context path when none was set */
    public String getDisplayName() {
        String name = displayName;
        return name != null ? name : getContextPath();
    }

    public void setDisplayName(String displayName) {
        this.displayName = displayName;
    }

    /** @return whether the context serves requests; when not, it answers 503 */
    public boolean isAvailable() {
        return available;
    }

    /** Makes the context serve requests or answer them with 503 Service Unavailable. */
    public void setAvailable(boolean available) {
        this.available = available;
    }

    /** @return whether the bare context path ({@code /app}) is served rather than redirected */
    public boolean isServeBareContextPath() {
        return serveBareContextPath;
    }

    /**
     * Serves {@code /app} as the path in context {@code /} (true) or redirects it to
     * {@code /app/} (false, the default, so relative links in the served page resolve).
     */
    public void setServeBareContextPath(boolean serve) {
        this.serveBareContextPath = serve;
    }

    /** @return the context its child sees */
    public Context getContext() {
        return context;
    }

    @Override
    protected void doStart() throws Exception {
        Path directory = tempDirectory;
        if (directory != null) {
            Files.createDirectories(directory);
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        ClassLoader loader = classLoader;
        if (loader != null) {
            thread.setContextClassLoader(loader);
        }
        try {
            super.doStart();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * @return the path in context of {@code path} in this context: {@code "/"} or what follows
     *     the context path; {@code ""} for the bare context path; null when it is not under it
     */
    String pathInContext(String path) {
        String prefix = contextPath;
        if (prefix.isEmpty()) {
            return path;
        }
        if (!path.startsWith(prefix)) {
            return null;
        }
        if (path.length() == prefix.length()) {
            return "";
        }
        return path.charAt(prefix.length()) == '/' ? path.substring(prefix.length()) : null;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = request.getPathInContext();
        if (path == null || path.isEmpty() || path.charAt(0) != '/' || !virtualHosts.matches(request)) {
            return false;
        }
        String pathInContext = pathInContext(path);
        if (pathInContext == null) {
            return false;
        }
        Handler child = getHandler();
        if (child == null) {
            return false;
        }
        if (!available) {
            Response.writeError(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503, null);
            return true;
        }
        if (pathInContext.isEmpty()) {
            if (!serveBareContextPath) {
                redirectToSlash(request, response, callback);
                return true;
            }
            pathInContext = "/";
        }
        String outerContextPath = request.getContextPath();
        String fullContextPath = outerContextPath.isEmpty() ? contextPath : outerContextPath + contextPath;
        ContextRequest contextRequest = new ContextRequest(request, context, fullContextPath, pathInContext);
        return callInContext(() -> child.handle(contextRequest, response, callback));
    }

    private void redirectToSlash(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        int status = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method)
                ? HttpStatus.MOVED_PERMANENTLY_301 : HttpStatus.PERMANENT_REDIRECT_308;
        String query = request.getHttpURI().getQuery();
        String location = UriPath.encodePath(request.getContextPath() + contextPath) + "/" + (query == null ? "" : "?" + query);
        Response.sendRedirect(request, response, callback, status, location);
    }

    /** Something run with the context's class loader; may throw like a handler. */
    @FunctionalInterface
    interface ContextCall {
        boolean call() throws Exception;
    }

    /** Runs {@code call} with the thread's context class loader set to this context's, then restores it. */
    boolean callInContext(ContextCall call) throws Exception {
        ClassLoader loader = classLoader;
        if (loader == null) {
            return call.call();
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return call.call();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Runs {@code task} with the context's class loader, then restores the thread's. */
    void runInContext(Runnable task) {
        ClassLoader loader = classLoader;
        if (loader == null) {
            task.run();
            return;
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            task.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode()) + "{" + getDisplayName() + ","
                + getContextPath() + (virtualHosts.isEmpty() ? "" : "," + virtualHosts.declarations())
                + (available ? "" : ",unavailable") + "}";
    }

    /**
     * The face of a {@link ContextHandler} that the handlers below it see: its path, name,
     * class loader, temporary directory and attributes. Thread-safe; attributes live as long
     * as the context, shared by all its requests.
     */
    public final class Context {

        private Context() {
        }

        /** @return the handler this is the context of */
        public ContextHandler getContextHandler() {
            return ContextHandler.this;
        }

        /** @return the context path: {@code /} for the root, else like {@code /app} */
        public String getContextPath() {
            return ContextHandler.this.getContextPath();
        }

        /** @return the display name */
        public String getDisplayName() {
            return ContextHandler.this.getDisplayName();
        }

        /** @return the context's class loader, or null */
        public ClassLoader getClassLoader() {
            return classLoader;
        }

        /** @return the context's temporary directory, or null */
        public Path getTempDirectory() {
            return tempDirectory;
        }

        /** @return the context attribute named {@code name}, or null */
        public Object getAttribute(String name) {
            return attributes.get(name);
        }

        /** Sets a context attribute; a null value removes it. @return the previous value */
        public Object setAttribute(String name, Object value) {
            return value == null ? attributes.remove(name) : attributes.put(name, value);
        }

        /** @return the previous value of the removed attribute */
        public Object removeAttribute(String name) {
            return attributes.remove(name);
        }

        /** @return the context attribute names, a snapshot */
        public Set<String> getAttributeNames() {
            return Set.copyOf(attributes.keySet());
        }

        /** Runs {@code task} with the context's class loader set, for work the context starts on other threads. */
        public void run(Runnable task) {
            runInContext(task);
        }

        @Override
        public String toString() {
            return "Context[" + getDisplayName() + "]";
        }
    }
}
