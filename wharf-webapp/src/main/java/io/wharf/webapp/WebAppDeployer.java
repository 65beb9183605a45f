package io.wharf.webapp;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.wharf.server.handler.context.ContextHandler;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.webapp.internal.ApplicationThread;
import io.wharf.webapp.internal.SourceStamp;
import io.wharf.webapp.internal.WebappsDirectory;

/**
 * Deploys web applications into a {@link ContextHandlerCollection} while the server runs: those
 * of a webapps directory (see below for names) and those added by path, at start, then again
 * whenever they change — polled every {@linkplain #setScanInterval scan interval} — without
 * restarting the server.
 *
 * <pre>{@code
 * ContextHandlerCollection contexts = new ContextHandlerCollection();
 * server.setHandler(contexts);
 * WebAppDeployer deployer = new WebAppDeployer(contexts, WebAppSettings.defaults());
 * deployer.setWebappsDirectory(Path.of("webapps"));
 * deployer.addWebApp("/admin", Path.of("/opt/admin.war"));
 * server.addBean(deployer);  // deploys when the server starts, undeploys when it stops
 * server.start();
 * }</pre>
 *
 * <p><b>Names.</b> In the webapps directory, {@code ROOT} (a WAR or a directory) is {@code /};
 * {@code shop.war} or {@code shop/} is {@code /shop}; {@code #} in a name stands for {@code /};
 * when {@code shop.war} and {@code shop/} are both there, the WAR counts and the directory is
 * ignored (it is usually the WAR unpacked by a tool). An application added by path takes its
 * context path from the call and wins over a webapps entry of the same path.
 *
 * <p><b>Changes.</b> A WAR changes with its size or modification time; a directory with any
 * file under its WEB-INF (static files are served live, without a redeploy). A change is acted
 * on once the source has looked the same for one interval more, so a WAR being copied is not
 * deployed half written. Polling, rather than a {@code WatchService}, because it sees a directory
 * on any file system the same way, needs no thread per watched tree, and makes "unchanged for one
 * interval" simple; a poll costs a listing and the attributes of the WEB-INF files.
 *
 * <p><b>Redeploy and undeploy.</b> The new version is prepared and started first; only if that
 * succeeds does it replace the old one in the collection, and the old one then stops: requests
 * already under way in it finish first (up to the {@linkplain #setDrainTimeout drain timeout}),
 * new ones go to the new version. A version that fails to deploy is logged with its reason, leaves
 * the version before it (if any) and every other application running, and is not retried until
 * it changes again. A removed source is undeployed the same graceful way.
 *
 * <p><b>Threads.</b> Scans run on the deployer's own thread ({@code wharf-deployer}), or on the
 * caller's for {@link #start()} and {@link #scan()}; one at a time. Each step that runs an
 * application's code (preparing, starting, stopping it) runs on a new thread that ends with it,
 * so a thread-local the application leaves behind cannot pin its class loader; the context class
 * loader of these threads is the container's, never inherited.
 */
public class WebAppDeployer extends ContainerLifeCycle {

    private static final System.Logger LOG = System.getLogger(WebAppDeployer.class.getName());

    /** Hears what the deployer did, on the deploying thread. */
    public interface Listener {
        /** {@code application} is started and serving. */
        default void deployed(WebApplication application) {
        }

        /** {@code application} has stopped and been closed. */
        default void undeployed(WebApplication application) {
        }

        /** Deploying {@code source} at {@code contextPath} failed with {@code failure}. */
        default void failed(String contextPath, Path source, Exception failure) {
        }
    }

    /** A deployed application and the stamp of its source when it was deployed. */
    private record Deployed(WebApplication application, SourceStamp stamp) {
    }

    /** A source as seen at one poll. */
    private record Seen(Path source, SourceStamp stamp) {
    }

    private final ContextHandlerCollection contexts;
    private final WebAppSettings settings;
    private final Map<String, Path> added = new LinkedHashMap<>();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Map<String, Deployed> deployed = new LinkedHashMap<>();
    private final Map<String, Seen> pending = new HashMap<>();
    private final Map<String, Seen> failed = new HashMap<>();
    private final Set<Path> shadowedReported = new HashSet<>();
    private final Object scanLock = new Object();
    private volatile Map<String, WebApplication> published = Map.of();
    private volatile Path webappsDirectory;
    private volatile Duration scanInterval = Duration.ofSeconds(1);
    private volatile Duration drainTimeout = WebApplication.DEFAULT_DRAIN_TIMEOUT;
    private ScheduledExecutorService poller;

    /**
     * @param contexts where the applications' contexts go; it must belong to the server (be in its
     *     handler tree) and start before this deployer
     * @param settings how applications are prepared
     */
    public WebAppDeployer(ContextHandlerCollection contexts, WebAppSettings settings) {
        this.contexts = Objects.requireNonNull(contexts, "contexts");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Deploys the WARs and directories of {@code directory}; before starting. */
    public void setWebappsDirectory(Path directory) {
        this.webappsDirectory = directory;
    }

    /** Deploys the WAR or directory {@code source} at {@code contextPath} ({@code /} or like {@code /shop}); before starting. */
    public void addWebApp(String contextPath, Path source) {
        synchronized (scanLock) {
            added.put(contextPath, source);
        }
    }

    /** Sets how often sources are looked at for changes (default 1 s); zero deploys once at start and never polls. */
    public void setScanInterval(Duration interval) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("the scan interval must not be negative: " + interval);
        }
        this.scanInterval = interval;
    }

    /** Sets how long an undeploy or redeploy waits for the old version's requests under way (default 10 s). */
    public void setDrainTimeout(Duration timeout) {
        this.drainTimeout = timeout;
    }

    /** Adds a listener of deployments. */
    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    /** @return the applications deployed now, by context path; a snapshot, which a scan under way does not hold up */
    public Map<String, WebApplication> applications() {
        return published;
    }

    /** Publishes the deployed applications for {@link #applications()}; under the scan lock. */
    private void publish() {
        Map<String, WebApplication> applications = new TreeMap<>();
        deployed.forEach((path, one) -> applications.put(path, one.application()));
        published = Collections.unmodifiableMap(applications);
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        scan(true);
        long millis = scanInterval.toMillis();
        if (millis > 0) {
            ClassLoader container = WebAppDeployer.class.getClassLoader();
            poller = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "wharf-deployer");
                thread.setDaemon(true);
                thread.setContextClassLoader(container);
                return thread;
            });
            poller.scheduleWithFixedDelay(this::poll, millis, millis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    protected void doStop() throws Exception {
        ScheduledExecutorService running = poller;
        poller = null;
        if (running != null) {
            // Not shutdownNow: a scan under way finishes its step rather than being interrupted in the middle.
            running.shutdown();
            running.awaitTermination(drainTimeout.toMillis() + 60_000, TimeUnit.MILLISECONDS);
        }
        synchronized (scanLock) {
            List<String> paths = new ArrayList<>(deployed.keySet());
            Collections.reverse(paths);
            for (String path : paths) {
                undeploy(deployed.remove(path));
                publish();
            }
            pending.clear();
            failed.clear();
        }
        super.doStop();
    }

    private void poll() {
        try {
            scan(false);
        } catch (RuntimeException | LinkageError e) {
            // Thrown out of here, it would end the polling for good.
            LOG.log(System.Logger.Level.ERROR, "a scan for web applications failed; polling goes on", e);
        }
    }

    /**
     * Looks at the sources now and deploys, redeploys and undeploys what changed, on the calling
     * thread; a change not yet seen unchanged for one scan waits for the next.
     */
    public void scan() {
        scan(false);
    }

    private void scan(boolean initial) {
        synchronized (scanLock) {
            Map<String, Path> wanted = wanted();
            for (String path : new ArrayList<>(deployed.keySet())) {
                Deployed current = deployed.get(path);
                if (!current.application().source().equals(wanted.get(path))) {
                    deployed.remove(path);
                    publish();
                    undeploy(current);
                }
            }
            failed.keySet().retainAll(wanted.keySet());
            pending.keySet().retainAll(wanted.keySet());
            wanted.forEach((path, source) -> consider(path, source, initial));
        }
    }

    /** @return every source to deploy now, by context path */
    private Map<String, Path> wanted() {
        Map<String, Path> wanted = new TreeMap<>();
        Path directory = webappsDirectory;
        if (directory != null) {
            try {
                WebappsDirectory.Listing listing = WebappsDirectory.list(directory);
                wanted.putAll(listing.applications());
                for (Path shadowed : listing.shadowed()) {
                    if (shadowedReported.add(shadowed)) {
                        LOG.log(System.Logger.Level.INFO, "{0} is ignored: {0}.war of the same name is deployed instead", shadowed);
                    }
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "listing " + directory + " failed; trying again at the next scan", e);
                deployed.forEach((path, one) -> wanted.put(path, one.application().source()));
            }
        }
        wanted.putAll(added);
        return wanted;
    }

    private void consider(String path, Path source, boolean initial) {
        SourceStamp stamp;
        try {
            stamp = SourceStamp.of(source);
        } catch (IOException e) {
            // Changing under our feet (being copied, being deleted): the next scan will see.
            return;
        }
        Seen seen = new Seen(source, stamp);
        Deployed current = deployed.get(path);
        if (current != null && current.application().source().equals(source) && current.stamp().equals(stamp) || seen.equals(failed.get(path))) {
            pending.remove(path);
            return;
        }
        if (!initial && !seen.equals(pending.put(path, seen))) {
            return;
        }
        pending.remove(path);
        deploy(path, seen);
    }

    private void deploy(String path, Seen seen) {
        WebApplication application = null;
        try {
            application = ApplicationThread.call("wharf-deploy " + path, () -> WebApplication.prepare(path, seen.source(), settings, drainTimeout));
            ContextHandler context = application.contextHandler();
            context.setServer(contexts.getServer());
            ApplicationThread.call("wharf-deploy " + path, () -> {
                context.start();
                return null;
            });
            contexts.addHandler(context);
        } catch (Exception | LinkageError e) {
            // A LinkageError (a class of the application that does not link or initialize) fails this application, not the deployer.
            Exception failure = e instanceof Exception exception ? exception : new DeploymentException(e.toString(), e);
            failed.put(path, seen);
            if (application != null) {
                WebApplication failedApplication = application;
                try {
                    ApplicationThread.call("wharf-undeploy " + path, () -> {
                        stopQuietly(failedApplication);
                        return null;
                    });
                } catch (Exception stopFailure) {
                    failure.addSuppressed(stopFailure);
                }
                application.close();
            }
            LOG.log(System.Logger.Level.ERROR, "deploying " + seen.source() + " at " + path + " failed: " + failure.getMessage()
                + (deployed.containsKey(path) ? "; the version deployed before keeps running" : ""), failure);
            listeners.forEach(listener -> listener.failed(path, seen.source(), failure));
            return;
        }
        failed.remove(path);
        Deployed previous = deployed.put(path, new Deployed(application, seen.stamp()));
        if (previous != null) {
            // Both are in the collection, the old one first: it passes new requests on to the new one from now on.
            previous.application().refuseNewRequests();
        }
        publish();
        LOG.log(System.Logger.Level.INFO, "deployed {0} at {1}", seen.source(), path);
        for (Listener listener : listeners) {
            listener.deployed(application);
        }
        if (previous != null) {
            undeploy(previous);
        }
    }

    private void undeploy(Deployed one) {
        WebApplication application = one.application();
        try {
            ApplicationThread.call("wharf-undeploy " + application.contextPath(), () -> {
                contexts.removeHandler(application.contextHandler());
                stopQuietly(application);
                return null;
            });
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "undeploying " + application + " failed", e);
        } finally {
            application.close();
        }
        LOG.log(System.Logger.Level.INFO, "undeployed {0} from {1}", application.source(), application.contextPath());
        for (Listener listener : listeners) {
            listener.undeployed(application);
        }
    }

    private static void stopQuietly(WebApplication application) {
        try {
            application.contextHandler().stop();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "stopping " + application + " failed", e);
        }
    }
}
