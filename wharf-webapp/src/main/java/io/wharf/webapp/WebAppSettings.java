package io.wharf.webapp;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.wharf.servlet.security.LoginService;

/**
 * How {@link WebApplication}s are prepared: where their work directories go, which classes they
 * share with the container, where annotation scans are cached, and the resources their
 * {@code <resource-ref>}s may name. Immutable; the deployer shares one among its deployments.
 *
 * <pre>{@code
 * WebAppSettings settings = WebAppSettings.defaults()
 *     .withTempDirectory(Path.of("/var/tmp/wharf"))
 *     .withResource("jdbc/orders", dataSource);
 * }</pre>
 *
 * @param tempDirectory where each deployment gets a fresh work directory (the extracted WAR,
 *     the context's temporary directory); made when missing
 * @param parentClassLoader the container's loader, the parent of every application's
 * @param visibility the system and server classes of {@link WebAppClassLoader}
 * @param scanCacheDirectory where the scans of WEB-INF/lib jars are cached by content, or empty for none
 * @param scanThreads the most jars scanned at once
 * @param maxExtractedBytes the most bytes a WAR may inflate to
 * @param resources what {@code java:comp/env/NAME} gives for a {@code <resource-ref>} of that NAME
 * @param loginService the users of applications with security constraints or a login config;
 *     without one such applications are refused
 * @param legacyJavax whether a javax.servlet application (Servlet 4 or earlier) is converted to
 *     Jakarta at deployment with the Eclipse Transformer rather than refused; the converted copy
 *     is cached under {@code tempDirectory/legacy-javax} by the SHA-256 of the source's content.
 *     It needs {@code org.eclipse.transformer:org.eclipse.transformer} on the class or module path
 */
public record WebAppSettings(
    Path tempDirectory,
    ClassLoader parentClassLoader,
    ClassVisibility visibility,
    Optional<Path> scanCacheDirectory,
    int scanThreads,
    long maxExtractedBytes,
    Map<String, Object> resources,
    Optional<LoginService> loginService,
    boolean legacyJavax) {

    /** The default limit on a WAR's inflated size: 1 GiB. */
    public static final long DEFAULT_MAX_EXTRACTED_BYTES = 1L << 30;

    /** Checks the numbers and copies the map. */
    public WebAppSettings {
        if (scanThreads < 1) {
            throw new IllegalArgumentException("scanThreads must be at least 1: " + scanThreads);
        }
        if (maxExtractedBytes < 1) {
            throw new IllegalArgumentException("maxExtractedBytes must be positive: " + maxExtractedBytes);
        }
        resources = Map.copyOf(resources);
    }

    /**
     * @return work directories under {@code java.io.tmpdir}/wharf-webapps, scans cached in its
     *     {@code scan-cache}, the loader of this class as parent, {@link ClassVisibility#DEFAULT},
     *     two scanning threads, {@link #DEFAULT_MAX_EXTRACTED_BYTES}, no resources, no login service,
     *     javax applications refused
     */
    public static WebAppSettings defaults() {
        Path temp = Path.of(System.getProperty("java.io.tmpdir"), "wharf-webapps");
        return new WebAppSettings(temp, WebAppSettings.class.getClassLoader(), ClassVisibility.DEFAULT,
            Optional.of(temp.resolve("scan-cache")), 2, DEFAULT_MAX_EXTRACTED_BYTES, Map.of(), Optional.empty(), false);
    }

    /** @return these settings with work directories (and the scan cache, when it was under the old one) under {@code directory} */
    public WebAppSettings withTempDirectory(Path directory) {
        Optional<Path> cache = scanCacheDirectory.map(path -> path.startsWith(tempDirectory) ? directory.resolve(tempDirectory.relativize(path)) : path);
        return new WebAppSettings(directory, parentClassLoader, visibility, cache, scanThreads, maxExtractedBytes, resources,
            loginService, legacyJavax);
    }

    /** @return these settings with another parent loader */
    public WebAppSettings withParentClassLoader(ClassLoader loader) {
        return new WebAppSettings(tempDirectory, loader, visibility, scanCacheDirectory, scanThreads, maxExtractedBytes,
            resources, loginService, legacyJavax);
    }

    /** @return these settings with other class visibility rules */
    public WebAppSettings withVisibility(ClassVisibility rules) {
        return new WebAppSettings(tempDirectory, parentClassLoader, rules, scanCacheDirectory, scanThreads, maxExtractedBytes,
            resources, loginService, legacyJavax);
    }

    /** @return these settings with another scan cache (empty: none) */
    public WebAppSettings withScanCacheDirectory(Optional<Path> directory) {
        return new WebAppSettings(tempDirectory, parentClassLoader, visibility, directory, scanThreads, maxExtractedBytes,
            resources, loginService, legacyJavax);
    }

    /** @return these settings with another limit on a WAR's inflated size */
    public WebAppSettings withMaxExtractedBytes(long bytes) {
        return new WebAppSettings(tempDirectory, parentClassLoader, visibility, scanCacheDirectory, scanThreads, bytes,
            resources, loginService, legacyJavax);
    }

    /** @return these settings with {@code resource} given for a {@code <resource-ref>} named {@code name} ("jdbc/orders") */
    public WebAppSettings withResource(String name, Object resource) {
        Map<String, Object> more = new HashMap<>(resources);
        more.put(name, resource);
        return new WebAppSettings(tempDirectory, parentClassLoader, visibility, scanCacheDirectory, scanThreads,
            maxExtractedBytes, more, loginService, legacyJavax);
    }

    /** @return these settings with the users that applications with security check logins against */
    public WebAppSettings withLoginService(LoginService users) {
        return new WebAppSettings(tempDirectory, parentClassLoader, visibility, scanCacheDirectory, scanThreads,
            maxExtractedBytes, resources, Optional.of(users), legacyJavax);
    }

    /** @return these settings with the legacy javax mode on (javax applications converted with the Eclipse Transformer) or off (refused) */
    public WebAppSettings withLegacyJavax(boolean on) {
        return new WebAppSettings(tempDirectory, parentClassLoader, visibility, scanCacheDirectory, scanThreads,
            maxExtractedBytes, resources, loginService, on);
    }

    /** @return where converted javax applications are cached: {@code legacy-javax} under the temporary directory */
    public Path legacyJavaxCacheDirectory() {
        return tempDirectory.resolve("legacy-javax");
    }
}
