package io.wharf.tests.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolvedModule;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;

import io.wharf.tests.architecture.layer.EchoClient;
import io.wharf.tests.architecture.layer.EchoServer;
import io.wharf.tests.architecture.layer.JspPageServer;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * Resolves the WebSocket parts on a module path that lacks the other side, as a user's build
 * would: the client part with every Wharf module but {@code wharf-server} and
 * {@code wharf-websocket-server}, the server part with every one but {@code wharf-client} and
 * {@code wharf-websocket-client}. Resolution fails (FindException) if anything in the part's
 * {@code requires} closure needs a missing module. A server that speaks only HTTP/1.1 also runs
 * without {@code wharf-http2}, and so do a WebSocket client and server over HTTP/1.1.
 */
class ModulePathTest {

    @Test
    void aWebSocketClientResolvesWithoutTheServer() throws Exception {
        Set<String> resolved = resolveWithout("io.wharf.websocket.client", "io.wharf.server", "io.wharf.websocket.server");
        assertTrue(resolved.contains("io.wharf.client"), resolved.toString());
        assertFalse(resolved.contains("io.wharf.server"), resolved.toString());
    }

    @Test
    void aWebSocketServerResolvesWithoutTheClient() throws Exception {
        Set<String> resolved = resolveWithout("io.wharf.websocket.server", "io.wharf.client", "io.wharf.websocket.client");
        assertTrue(resolved.contains("io.wharf.server"), resolved.toString());
        assertFalse(resolved.contains("io.wharf.client"), resolved.toString());
    }

    /**
     * A server that speaks only HTTP/1.1 runs on a module path without {@code wharf-http2}: the
     * server requires it only for its HTTP/2 wing ({@code requires static}), and nothing on the
     * HTTP/1.1 path loads an HTTP/2 class. The server's modules are defined in a layer of their
     * own, loaded from their classes with the platform loader as parent (so the test's class path
     * is out of sight), and one of its connectors answers a request on loopback.
     */
    @Test
    void anHttp11ServerRunsWithoutHttp2() throws Exception {
        Configuration configuration = configurationWithout("io.wharf.server", "io.wharf.http2");
        Set<String> resolved = names(configuration);
        assertFalse(resolved.contains("io.wharf.http2"), resolved.toString());
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(configuration, ClassLoader.getPlatformClassLoader());
        ClassLoader loader = layer.findLoader("io.wharf.server");
        Class<?> serverType = loader.loadClass("io.wharf.server.Server");
        Class<?> connectorType = loader.loadClass("io.wharf.server.ServerConnector");
        Class<?> factoryType = loader.loadClass("io.wharf.server.ConnectionFactory");
        Class<?> handlerType = loader.loadClass("io.wharf.server.Handler");
        Class<?> functionType = loader.loadClass("io.wharf.server.Handler$Function");
        Class<?> responseType = loader.loadClass("io.wharf.server.Response");
        Class<?> callbackType = loader.loadClass("io.wharf.util.Callback");

        Object factories = Array.newInstance(factoryType, 1);
        Array.set(factories, 0, loader.loadClass("io.wharf.server.http1.HttpConnectionFactory").getConstructor().newInstance());
        Object server = serverType.getConstructor().newInstance();
        Object connector = connectorType.getConstructor(serverType, factories.getClass()).newInstance(server, factories);
        connectorType.getMethod("setHost", String.class).invoke(connector, "127.0.0.1");
        serverType.getMethod("addConnector", loader.loadClass("io.wharf.server.Connector")).invoke(server, connector);
        Method write = responseType.getMethod("write", responseType, boolean.class, String.class, callbackType);
        Object function = Proxy.newProxyInstance(loader, new Class<?>[] {functionType}, (proxy, method, args) -> switch (method.getName()) {
            case "handle" -> {
                write.invoke(null, args[1], true, "served without HTTP/2", args[2]);
                yield true;
            }
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            default -> "the test's handler";
        });
        serverType.getMethod("setHandler", handlerType).invoke(server, handlerType.getMethod("of", functionType).invoke(null, function));
        serverType.getMethod("start").invoke(server);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), (int) connectorType.getMethod("getLocalPort").invoke(connector))) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.startsWith("HTTP/1.1 200 ") && response.endsWith("served without HTTP/2"), response);
        } finally {
            serverType.getMethod("stop").invoke(server);
        }
    }

    /**
     * A WebSocket server and a WebSocket client over HTTP/1.1 run without {@code wharf-http2}
     * and exchange messages: the server in a layer of {@code io.wharf.websocket.server} without
     * the HTTP/2, client and WebSocket client modules, the client in a layer of
     * {@code io.wharf.websocket.client} without the HTTP/2, server and WebSocket server modules,
     * then again on a class path without those. Each side is a plain class of this module
     * ({@link EchoServer}, {@link EchoClient}) loaded through a class loader that sees Wharf as
     * those modules alone (its parent is the layer's loader, or the platform's with the modules'
     * classes on its own path): a class of {@code wharf-http2} loaded on the HTTP/1.1 path would
     * fail it with NoClassDefFoundError. The client's request for a session over HTTP/2 is
     * refused with a message that names the module.
     */
    @Test
    void aWebSocketClientAndServerTalkWithoutHttp2() throws Exception {
        Configuration serverModules = configurationWithout("io.wharf.websocket.server",
            "io.wharf.http2", "io.wharf.client", "io.wharf.websocket.client");
        Configuration clientModules = configurationWithout("io.wharf.websocket.client",
            "io.wharf.http2", "io.wharf.server", "io.wharf.websocket.server");
        assertFalse(names(serverModules).contains("io.wharf.http2"), names(serverModules).toString());
        assertFalse(names(clientModules).contains("io.wharf.http2"), names(clientModules).toString());
        try (URLClassLoader serverSide = loaderOver(serverModules, "io.wharf.websocket.server");
             URLClassLoader clientModuleSide = loaderOver(clientModules, "io.wharf.websocket.client");
             URLClassLoader clientClassPathSide = classPathWithout("io.wharf.http2", "io.wharf.server", "io.wharf.websocket.server")) {
            Class<?> serverType = serverSide.loadClass(EchoServer.class.getName());
            assertNotSame(EchoServer.class, serverType, "the server must run in its layer, not on the test's class path");
            try (AutoCloseable server = (AutoCloseable) serverType.getConstructor().newInstance()) {
                URI uri = URI.create("ws://127.0.0.1:" + ((IntSupplier) server).getAsInt() + "/echo");
                List<String> told = talk(clientModuleSide, uri);
                assertTrue(told.get(4).endsWith("which is not in the module graph: put it on the module path and require it, "
                    + "or add --add-modules io.wharf.http2"), told.toString());
                told = talk(clientClassPathSide, uri);
                assertTrue(told.get(4).endsWith("which is not on the class path: add the wharf-http2 jar"), told.toString());
            }
        }
    }

    /**
     * JSP runs on the module path: {@code io.wharf.jsp} resolves with the Wharf modules it needs,
     * Jasper (the automatic module {@code org.mortbay.apache.jasper}) and what Jasper loads (the
     * Eclipse compiler and the EL implementation, automatic modules too; the JSP, EL and Servlet
     * APIs), without the client, and a {@link JspPageServer} in a layer of those modules
     * compiles and serves a page that names the modules it ran in. JSTL stays off the module
     * path: its implementation jar's automatic module name is its API's module name.
     */
    @Test
    void aJspPageRunsOnTheModulePath() throws Exception {
        List<Path> jasper = new ArrayList<>();
        for (String type : List.of("org.apache.jasper.servlet.JspServlet", "org.apache.el.ExpressionFactoryImpl",
                "org.eclipse.jdt.internal.compiler.Compiler")) {
            jasper.add(Path.of(Class.forName(type).getProtectionDomain().getCodeSource().getLocation().toURI()));
        }
        for (String module : List.of("jakarta.servlet.jsp", "jakarta.el", "jakarta.servlet")) {
            jasper.add(jarOfModule(module));
        }
        Configuration modules = configurationWithout("io.wharf.jsp", jasper, "io.wharf.client", "io.wharf.websocket.client");
        Set<String> resolved = names(modules);
        assertTrue(resolved.containsAll(Set.of("io.wharf.servlet", "org.mortbay.apache.jasper", "org.mortbay.apache.el",
            "org.eclipse.jdt.core.compiler.batch", "jakarta.servlet.jsp", "jakarta.el")), resolved.toString());
        assertFalse(resolved.contains("io.wharf.client"), resolved.toString());
        Path pages = Files.createTempDirectory("wharf-jsp-layer");
        try (URLClassLoader loader = loaderOver(modules, "io.wharf.jsp")) {
            Files.writeString(pages.resolve("where.jsp"), "${1 + 1} <%= org.apache.jasper.servlet.JspServlet.class.getModule().getName() %>"
                + " <%= io.wharf.jsp.JspInitializer.class.getModule().getName() %>");
            Class<?> serverType = loader.loadClass(JspPageServer.class.getName());
            assertNotSame(JspPageServer.class, serverType, "the server must run in its layer, not on the test's class path");
            try (AutoCloseable server = (AutoCloseable) serverType.getConstructor(Path.class, Path.class)
                    .newInstance(pages, pages.resolve("work"))) {
                String response = get(((IntSupplier) server).getAsInt(), "/where.jsp");
                assertTrue(response.startsWith("HTTP/1.1 200 "), response);
                assertEquals("2 org.mortbay.apache.jasper io.wharf.jsp", response.substring(response.indexOf("\r\n\r\n") + 4).strip());
            }
        } finally {
            try (var files = Files.walk(pages)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /**
     * @return the jar on the test's class path that holds the explicit module {@code name}
     *     (tomcat-embed-core holds the Servlet API's classes too, but is no such module)
     */
    private static Path jarOfModule(String name) {
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path jar = Path.of(entry);
            if (entry.endsWith(".jar") && ModuleFinder.of(jar).find(name).filter(found -> !found.descriptor().isAutomatic()).isPresent()) {
                return jar;
            }
        }
        throw new AssertionError("no jar of module " + name + " on the class path");
    }

    /** @return the whole response to a GET of {@code target} on loopback, read as ISO-8859-1 */
    private static String get(int port, String target) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * The login services run on a module path from {@code requires io.wharf.login} alone:
     * spring-security-crypto is an automatic module that declares nothing, so the login module
     * names what its encoders load (Bouncy Castle, Commons Logging). Resolved with the Wharf
     * modules, SLF4J and the jars of those libraries and of the servlet API, defined in a layer of
     * its own, it makes and checks an Argon2id hash.
     */
    @Test
    void theLoginServicesRunOnTheModulePath() throws Exception {
        List<Path> libraries = new ArrayList<>();
        for (String type : List.of("org.springframework.security.crypto.argon2.Argon2PasswordEncoder",
                "org.bouncycastle.crypto.generators.Argon2BytesGenerator", "org.apache.commons.logging.LogFactory")) {
            libraries.add(Path.of(Class.forName(type).getProtectionDomain().getCodeSource().getLocation().toURI()));
        }
        libraries.add(jarOfModule("jakarta.servlet"));
        Configuration configuration = configurationWithout("io.wharf.login", libraries);
        assertTrue(names(configuration).containsAll(Set.of("spring.security.crypto", "org.bouncycastle.provider",
            "org.apache.commons.logging", "io.wharf.servlet")), names(configuration).toString());
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(configuration, ClassLoader.getPlatformClassLoader());
        Class<?> hashType = layer.findLoader("io.wharf.login").loadClass("io.wharf.login.PasswordHash");
        assertEquals("io.wharf.login", hashType.getModule().getName());
        Object hash = hashType.getMethod("create", String.class).invoke(null, "secret");
        assertTrue((boolean) hashType.getMethod("matches", String.class).invoke(hash, "secret"));
        assertFalse((boolean) hashType.getMethod("matches", String.class).invoke(hash, "wrong"));
    }

    /**
     * @return what an {@link EchoClient} loaded by {@code clientSide} received from the server
     *     at {@code uri} and was told, after checking the echoes, the close and that a session
     *     over HTTP/2 was refused naming the module
     */
    private static List<String> talk(ClassLoader clientSide, URI uri) throws Exception {
        Class<?> clientType = clientSide.loadClass(EchoClient.class.getName());
        assertNotSame(EchoClient.class, clientType, "the client must run without wharf-http2, not on the test's class path");
        @SuppressWarnings("unchecked")
        Function<URI, List<String>> client = (Function<URI, List<String>>) clientType.getConstructor().newInstance();
        List<String> told = client.apply(uri);
        assertEquals(List.of("echo: one", "echo: two", "echo: three", "closed 1000"), told.subList(0, 4), told.toString());
        assertTrue(told.get(4).startsWith("WebSocket over HTTP/2 (ClientUpgradeRequest.withHttp2) needs the module io.wharf.http2 (wharf-http2), "),
            told.toString());
        return told;
    }

    /**
     * @return a loader of this module's test classes whose parent is the loader of a new layer of
     *     {@code modules} (over the platform loader): the test classes it loads see those modules alone
     */
    private static URLClassLoader loaderOver(Configuration modules, String root) {
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(modules, ClassLoader.getPlatformClassLoader());
        return new URLClassLoader(root + " without io.wharf.http2", new URL[] {testClasses()}, layer.findLoader(root));
    }

    /**
     * @return a loader over the platform loader with, on its own class path, the Wharf modules
     *     but {@code missing}, SLF4J and this module's test classes: every class it loads is in
     *     its unnamed module, as on an application's class path
     */
    private static URLClassLoader classPathWithout(String... missing) throws Exception {
        List<URL> path = new ArrayList<>();
        Set<String> left = Set.of(missing);
        for (Map.Entry<String, Path> module : WharfModules.moduleRoots().entrySet()) {
            if (!left.contains(module.getKey())) {
                path.add(module.getValue().toUri().toURL());
            }
        }
        path.add(Logger.class.getProtectionDomain().getCodeSource().getLocation());
        path.add(testClasses());
        return new URLClassLoader("class path without " + String.join(", ", missing), path.toArray(URL[]::new),
            ClassLoader.getPlatformClassLoader());
    }

    private static URL testClasses() {
        return ModulePathTest.class.getProtectionDomain().getCodeSource().getLocation();
    }

    /** @return the modules that {@code root} resolves to with the Wharf modules but {@code missing}, and SLF4J */
    private static Set<String> resolveWithout(String root, String... missing) throws URISyntaxException {
        return names(configurationWithout(root, missing));
    }

    private static Set<String> names(Configuration configuration) {
        return configuration.modules().stream().map(ResolvedModule::name).collect(Collectors.toSet());
    }

    /** @return the resolution of {@code root} with the Wharf modules but {@code missing}, and SLF4J */
    private static Configuration configurationWithout(String root, String... missing) throws URISyntaxException {
        return configurationWithout(root, List.of(), missing);
    }

    /** @return the resolution of {@code root} with the Wharf modules but {@code missing}, SLF4J and the jars {@code others} */
    private static Configuration configurationWithout(String root, List<Path> others, String... missing) throws URISyntaxException {
        List<Path> path = new ArrayList<>(others);
        Set<String> left = Set.of(missing);
        for (Map.Entry<String, Path> module : WharfModules.moduleRoots().entrySet()) {
            if (!left.contains(module.getKey())) {
                path.add(module.getValue());
            }
        }
        path.add(Path.of(Logger.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        return ModuleLayer.boot().configuration()
            .resolve(ModuleFinder.of(path.toArray(Path[]::new)), ModuleFinder.of(), Set.of(root));
    }
}
