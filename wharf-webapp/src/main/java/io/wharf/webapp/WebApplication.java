package io.wharf.webapp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ResourceBundle;

import io.wharf.server.handler.context.ContextHandler;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.webapp.descriptor.DescriptorParser;
import io.wharf.webapp.internal.DescriptorApplier;
import io.wharf.webapp.internal.DirectoryTree;
import io.wharf.webapp.internal.InitializerDiscovery;
import io.wharf.webapp.internal.DrainingHandler;
import io.wharf.webapp.internal.WarExtractor;
import io.wharf.webapp.internal.legacy.JavaxConversion;
import io.wharf.webapp.internal.legacy.ServletApiUse;
import io.wharf.webapp.internal.naming.ComponentEnvironment;
import io.wharf.webapp.internal.naming.ComponentEnvironments;
import io.wharf.webapp.internal.naming.JavaContexts;
import io.wharf.webapp.scan.AnnotationScanner;
import io.wharf.webapp.scan.WebAppMetadata;
import io.wharf.webapp.scan.WebAppReader;

/**
 * One web application made ready to run from a {@code .war} or an exploded directory: its
 * metadata read ({@link WebAppReader}), its {@link WebAppClassLoader}, its {@code java:comp/env}
 * and a {@link ServletContextHandler} configured from its descriptor, not yet started.
 *
 * <pre>{@code
 * try (WebApplication app = WebApplication.prepare("/shop", Path.of("shop.war"), WebAppSettings.defaults())) {
 *     contexts.addHandler(app.contextHandler());   // a ContextHandlerCollection: starts it
 *     ...
 *     contexts.removeHandler(app.contextHandler()); // requests under way finish, then it stops
 * }                                                 // close: the loader's jars, the work directory
 * }</pre>
 *
 * <p>Each preparation gets a fresh work directory under {@link WebAppSettings#tempDirectory()}:
 * a WAR is extracted into its {@code webapp/} (refusing entries that would land outside it), the
 * servlet context's temporary directory is its {@code tmp/}, and its {@code naming/} holds the
 * {@code jndi.properties} that points JNDI's {@code java:} URLs at this application's environment
 * on its threads. An exploded directory is served where it is.
 *
 * <p><b>javax applications.</b> A javax.servlet application (Servlet 4 or earlier: a Java EE
 * descriptor, or classes referring to javax.servlet) is refused, unless the settings turn the
 * {@linkplain WebAppSettings#withLegacyJavax legacy javax mode} on: then it is converted to
 * Jakarta with the Eclipse Transformer into a copy cached by its content under
 * {@link WebAppSettings#legacyJavaxCacheDirectory()}, and that copy is deployed and served.
 *
 * <p><b>Threads.</b> Prepared, started, stopped and closed by one deploying thread at a time
 * (the {@link WebAppDeployer}'s, or the embedding code's); requests run on the server's threads.
 * {@link #close()} comes after the context has stopped: it forgets the environment, closes the
 * class loader and deletes the work directory, so that nothing of the application stays reachable.
 */
public final class WebApplication implements AutoCloseable {

    /** How long stopping waits for requests under way by default. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(10);

    private final String contextPath;
    private final Path source;
    private final Path root;
    private final Path workDirectory;
    private final WebAppClassLoader classLoader;
    private final ServletContextHandler servletContextHandler;
    private final DrainingHandler draining;
    private final PreparationTimes preparationTimes;

    /**
     * How long each step of {@link #prepare} took, to tell where a deployment's time goes (the
     * deploy macro run prints them); the context's start, which runs the initializers, comes after.
     *
     * @param extract unpacking the WAR (zero for a directory, or for a converted javax WAR found in the cache)
     * @param read the descriptors and the annotation scan of WEB-INF/classes and WEB-INF/lib ({@link WebAppReader}), and a legacy javax conversion with its second read
     * @param configure the class loader, the descriptor applied to the context, the initializers
     *     found and the classes of their {@code @HandlesTypes} loaded
     */
    public record PreparationTimes(Duration extract, Duration read, Duration configure) {
    }

    private WebApplication(String contextPath, Path source, Path root, Path workDirectory, WebAppClassLoader classLoader,
                           ServletContextHandler servletContextHandler, DrainingHandler draining, PreparationTimes preparationTimes) {
        this.contextPath = contextPath;
        this.source = source;
        this.root = root;
        this.workDirectory = workDirectory;
        this.classLoader = classLoader;
        this.servletContextHandler = servletContextHandler;
        this.draining = draining;
        this.preparationTimes = preparationTimes;
    }

    /**
     * Reads the application at {@code source} and builds its servlet context, unstarted.
     *
     * @param contextPath where it is served: {@code /} or like {@code /shop}
     * @param source a {@code .war} file or an exploded directory
     * @param settings where work directories go, class visibility, resources
     * @return the application, which the caller must {@linkplain #close() close}
     * @throws DeploymentException when it cannot be deployed: a javax.servlet application (without the
     *     legacy javax mode, or one it cannot convert), an unsafe WAR entry, an unsupported element,
     *     a class that is missing (the message says which)
     * @throws IOException when its files cannot be read or the work directory written
     */
    public static WebApplication prepare(String contextPath, Path source, WebAppSettings settings) throws IOException {
        return prepare(contextPath, source, settings, DEFAULT_DRAIN_TIMEOUT);
    }

    /** As {@link #prepare(String, Path, WebAppSettings)}, with how long stopping waits for requests under way. */
    public static WebApplication prepare(String contextPath, Path source, WebAppSettings settings, Duration drainTimeout) throws IOException {
        if (!Files.exists(source)) {
            throw new DeploymentException(source + " does not exist");
        }
        Files.createDirectories(settings.tempDirectory());
        Path work = Files.createTempDirectory(settings.tempDirectory(), workName(contextPath));
        WebAppClassLoader loader = null;
        try {
            long start = System.nanoTime();
            JavaxConversion legacy = settings.legacyJavax() ? new JavaxConversion(source, settings.legacyJavaxCacheDirectory()) : null;
            Path root = rootOf(source, work, settings, legacy);
            long extracted = System.nanoTime();
            AnnotationScanner scanner = new AnnotationScanner(settings.scanCacheDirectory(), settings.scanThreads());
            WebAppReader reader = new WebAppReader(new DescriptorParser(), scanner);
            WebAppMetadata metadata = reader.read(root.resolve("WEB-INF"));
            if (metadata.isJavaxApplication()) {
                if (legacy == null) {
                    throw refusal(source, root, metadata);
                }
                Path extractedCopy = root.startsWith(work) ? root : null;
                root = legacy.convert(root);
                if (extractedCopy != null) {
                    DirectoryTree.delete(extractedCopy);
                }
                metadata = reader.read(root.resolve("WEB-INF"));
                if (metadata.isJavaxApplication()) {
                    throw new DeploymentException(source + " is still a javax.servlet application after its conversion by the Eclipse"
                        + " Transformer (into " + root + "): " + String.join("; ", metadata.javaxEvidence()));
                }
            }
            long read = System.nanoTime();
            Path webInf = root.resolve("WEB-INF");
            DescriptorApplier.refuseUnsupported(metadata, settings.loginService().orElse(null));

            List<Path> classPath = new ArrayList<>(WebAppClassLoader.classPathOf(root));
            classPath.add(naming(work));
            loader = new WebAppClassLoader(contextPath, classPath, settings.parentClassLoader(), settings.visibility());
            ComponentEnvironments.register(loader, ComponentEnvironment.of(metadata.descriptor().envEntries(),
                metadata.descriptor().resourceRefs(), settings.resources()));

            ServletContextHandler handler = new ServletContextHandler(contextPath);
            handler.setClassLoader(loader);
            handler.setTempDirectory(work.resolve("tmp"));
            handler.setBaseResource(root);
            configure(handler, metadata, loader, webInf, scanner, settings);
            // Between the core context and the servlet handler: undeploying waits for the requests under way.
            ContextHandler core = handler.getContextHandler();
            DrainingHandler draining = new DrainingHandler(core.getHandler(), drainTimeout);
            core.setHandler(draining);
            PreparationTimes times = new PreparationTimes(Duration.ofNanos(extracted - start), Duration.ofNanos(read - extracted),
                Duration.ofNanos(System.nanoTime() - read));
            return new WebApplication(handler.getContextPath(), source, root, work, loader, handler, draining, times);
        } catch (IOException | RuntimeException | Error e) {
            release(loader, work);
            throw e;
        }
    }

    /**
     * @return the directory to read the application from: an exploded directory itself, or a WAR
     *     extracted into the work directory's {@code webapp/}, or the copy of a javax WAR that an
     *     earlier deployment converted (then it is neither extracted nor converted again)
     */
    private static Path rootOf(Path source, Path work, WebAppSettings settings, JavaxConversion legacy) throws IOException {
        if (Files.isDirectory(source)) {
            return source;
        }
        if (!Files.isRegularFile(source)) {
            throw new DeploymentException(source + " is neither a .war file nor a directory");
        }
        Optional<Path> converted = legacy == null ? Optional.empty() : legacy.cached();
        if (converted.isPresent()) {
            return converted.get();
        }
        Path root = Files.createDirectories(work.resolve("webapp"));
        new WarExtractor(settings.maxExtractedBytes()).extract(source, root);
        return root;
    }

    /** @return the refusal of a javax application: what shows it is one, and the mode that would convert it */
    private static DeploymentException refusal(Path source, Path root, WebAppMetadata metadata) throws IOException {
        List<String> evidence = new ArrayList<>(metadata.javaxEvidence());
        if (metadata.descriptor().namespace().isJavaxServlet()) {
            // A javax descriptor stops the reading before the classes: name one of them too, when the jars can be read.
            try {
                ServletApiUse.of(root).firstJavax().ifPresent(file -> evidence.add(file + " refers to javax.servlet"));
            } catch (DeploymentException unreadable) {
                evidence.add(unreadable.getMessage());
            }
        }
        return new DeploymentException(source + " is a javax.servlet application (Servlet 4 or earlier); Wharf runs Jakarta Servlet 5+"
            + " applications. Evidence: " + String.join("; ", evidence) + ". The legacy javax mode converts it at deployment with the"
            + " Eclipse Transformer: WebAppSettings.withLegacyJavax(true), or ./wharf serve --legacy-javax");
    }

    /** Applies the descriptor and adds the initializers, with the application's loader as the thread's context loader. */
    private static void configure(ServletContextHandler handler, WebAppMetadata metadata, WebAppClassLoader loader, Path webInf,
                                  AnnotationScanner scanner, WebAppSettings settings) throws IOException {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            DescriptorApplier applier = new DescriptorApplier(handler, loader);
            applier.apply(metadata, settings.loginService().orElse(null));
            for (InitializerDiscovery.Found found : new InitializerDiscovery(loader, webInf, scanner).discover(metadata)) {
                handler.addServletContainerInitializer(found.initializer(), found.classes().toArray(Class<?>[]::new));
            }
            // After wharf-jsp's initializer (when the server has it), which registers the jsp servlet they copy.
            applier.jspFileServlets().ifPresent(handler::addServletContainerInitializer);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // The servlet API's answer to a bad registration (an unknown listener class, a bad pattern): a deployment error.
            throw new DeploymentException(e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** @return the directory holding the jndi.properties that lists the java: URL factory's package */
    private static Path naming(Path work) throws IOException {
        Path directory = Files.createDirectories(work.resolve("naming"));
        Files.writeString(directory.resolve("jndi.properties"),
            "# Written by Wharf: java:comp/env on this web application's threads\n"
                + "java.naming.factory.url.pkgs=" + JavaContexts.URL_PACKAGE_PREFIX + "\n", StandardCharsets.ISO_8859_1);
        return directory;
    }

    private static String workName(String contextPath) {
        String name = contextPath.equals("/") || contextPath.isEmpty() ? "ROOT" : contextPath.substring(1).replace('/', '#');
        return name.replaceAll("[^A-Za-z0-9._#-]", "_") + "-";
    }

    /** @return the context path: {@code /} or like {@code /shop} */
    public String contextPath() {
        return contextPath;
    }

    /** @return the WAR or directory this was prepared from */
    public Path source() {
        return source;
    }

    /**
     * @return the directory the application's files are served from: the extracted WAR, the
     *     exploded directory, or (in the legacy javax mode) the converted copy of either
     */
    public Path root() {
        return root;
    }

    /** @return this deployment's own work directory, deleted by {@link #close()} */
    public Path workDirectory() {
        return workDirectory;
    }

    /** @return how long the steps of its preparation took */
    public PreparationTimes preparationTimes() {
        return preparationTimes;
    }

    /** @return the application's class loader */
    public WebAppClassLoader classLoader() {
        return classLoader;
    }

    /** @return the servlet context, configured and not started */
    public ServletContextHandler servletContextHandler() {
        return servletContextHandler;
    }

    /**
     * @return the core context to add to a {@link io.wharf.server.handler.context.ContextHandlerCollection}
     *     (or to set as a server's handler): starting it starts the servlet context; stopping it lets
     *     the requests under way finish first
     */
    public ContextHandler contextHandler() {
        return servletContextHandler.getContextHandler();
    }

    /** Passes new requests on from now on (to a newer version in the same collection); for the deployer's switch-over. */
    void refuseNewRequests() {
        draining.refuseNewRequests();
    }

    /** @return the requests under way in this application */
    public int requestsInFlight() {
        return draining.inFlight();
    }

    /**
     * Releases what the application held, after its context stopped: its {@code java:comp/env},
     * the class loader (its jars) and the work directory. Failures to delete are logged.
     */
    @Override
    public void close() {
        release(classLoader, workDirectory);
    }

    private static void release(WebAppClassLoader loader, Path work) {
        if (loader != null) {
            ComponentEnvironments.unregister(loader);
            ResourceBundle.clearCache(loader);
            try {
                loader.close();
            } catch (IOException e) {
                log(System.Logger.Level.WARNING, "closing the class loader " + loader + " failed: " + e);
            }
        }
        try {
            DirectoryTree.delete(work);
        } catch (IOException e) {
            log(System.Logger.Level.WARNING, "deleting the work directory " + work + " failed: " + e);
        }
    }

    private static void log(System.Logger.Level level, String message) {
        System.getLogger(WebApplication.class.getName()).log(level, message);
    }

    @Override
    public String toString() {
        return "WebApplication{" + contextPath + " from " + source + "}";
    }
}
