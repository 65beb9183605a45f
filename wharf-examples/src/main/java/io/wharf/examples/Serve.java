package io.wharf.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.IntFunction;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.webapp.WebAppDeployer;
import io.wharf.webapp.WebAppSettings;
import io.wharf.webapp.WebApplication;

/**
 * {@code ./wharf serve [--port N] [--https-port N] [--webapps DIR] [--webapp /CONTEXT=PATH]... [--legacy-javax]}:
 * runs web applications (WARs and exploded directories) on HTTP/1.1 and h2c on {@code --port}
 * (8080 unless told), and with {@code --https-port} also on HTTPS (h2 and HTTP/1.1, by ALPN) with
 * the demo's self-signed certificate ({@link DemoCertificate}). The applications of
 * {@code --webapps} are named by their files ({@code ROOT} is {@code /}) and redeployed when they
 * change; each {@code --webapp} puts one WAR or directory at a context path. Each context's URL is
 * printed as it is deployed; Ctrl-C stops the server gracefully. {@code --legacy-javax} deploys
 * javax.servlet applications (Servlet 4 or earlier) too, converted to Jakarta with the Eclipse
 * Transformer ({@link WebAppSettings#withLegacyJavax}); without it they are refused.
 *
 * <p>It lives beside the demo because it shares the demo's certificate and the launcher's class
 * path; the module graph stays one-way (examples sits on top).
 */
public final class Serve {

    static final String USAGE = "usage: ./wharf serve [--port N] [--https-port N] [--webapps DIR] [--webapp /CONTEXT=PATH]..."
        + " [--legacy-javax]";

    private Serve() {
    }

    /** What the command line asked for. */
    record Options(int port, OptionalInt httpsPort, Path webapps, Map<String, Path> webappsByContext, boolean legacyJavax) {

        /** @throws IllegalArgumentException saying what is wrong with the arguments */
        static Options parse(String... args) {
            int port = 8080;
            OptionalInt httpsPort = OptionalInt.empty();
            Path webapps = null;
            Map<String, Path> byContext = new LinkedHashMap<>();
            boolean legacyJavax = false;
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (option.equals("--help") || option.equals("-h")) {
                    throw new IllegalArgumentException("");
                }
                if (option.equals("--legacy-javax")) {
                    legacyJavax = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                String value = args[++i];
                switch (option) {
                    case "--port" -> port = port(option, value);
                    case "--https-port" -> httpsPort = OptionalInt.of(port(option, value));
                    case "--webapps" -> webapps = Path.of(value);
                    case "--webapp" -> {
                        int equals = value.indexOf('=');
                        if (equals < 1 || !value.startsWith("/")) {
                            throw new IllegalArgumentException("--webapp takes /CONTEXT=PATH, like /shop=shop.war, not " + value);
                        }
                        byContext.put(value.substring(0, equals), Path.of(value.substring(equals + 1)));
                    }
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (webapps == null && byContext.isEmpty()) {
                throw new IllegalArgumentException("nothing to serve: give --webapps DIR or --webapp /CONTEXT=PATH");
            }
            return new Options(port, httpsPort, webapps, byContext, legacyJavax);
        }

        private static int port(String option, String value) {
            try {
                int port = Integer.parseInt(value);
                if (port >= 0 && port <= 65535) {
                    return port;
                }
            } catch (NumberFormatException e) {
                // Said below.
            }
            throw new IllegalArgumentException(option + " takes a port from 0 to 65535, not " + value);
        }
    }

    /** A started server, its deployer and the ports it listens on (-1 for no HTTPS). */
    record Running(Server server, WebAppDeployer deployer, int httpPort, int httpsPort) {
    }

    /** @return the URL of a context path on the HTTP port */
    static String url(int port, String contextPath) {
        return "http://localhost:" + port + (contextPath.equals("/") ? "/" : contextPath + "/");
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            if (!e.getMessage().isEmpty()) {
                System.err.println("wharf serve: " + e.getMessage());
            }
            System.err.println(USAGE);
            System.exit(e.getMessage().isEmpty() ? 0 : 2);
            return;
        }
        Path certificates = Path.of(System.getProperty("wharf.demo.dir", ".wharf"), "demo-tls");
        Running running = start(options, certificates, System.out);
        running.server().setStopAtShutdown(true);
        System.out.println("Wharf serving on http://localhost:" + running.httpPort() + "/"
            + (running.httpsPort() < 0 ? "" : " and https://localhost:" + running.httpsPort()
                + "/ (self-signed: curl --cacert " + certificates.resolve("demo.pem") + ")")
            + "  (Ctrl-C stops it)");
        running.server().join();
    }

    /**
     * Starts the server and deploys the applications, printing to {@code out} each context's URL
     * as it is deployed (the first ones once the ports are known) and each failure with its reason.
     */
    static Running start(Options options, Path certificates, PrintStream out) throws Exception {
        Server server = new Server();
        ContextHandlerCollection contexts = new ContextHandlerCollection();
        server.setHandler(contexts);
        WebAppDeployer deployer = new WebAppDeployer(contexts, WebAppSettings.defaults().withLegacyJavax(options.legacyJavax()));
        if (options.webapps() != null) {
            if (!Files.isDirectory(options.webapps())) {
                out.println("wharf serve: " + options.webapps() + " does not exist yet; applications put there will be deployed");
            }
            deployer.setWebappsDirectory(options.webapps());
        }
        options.webappsByContext().forEach(deployer::addWebApp);
        // Lines said before the port is known wait for it.
        List<IntFunction<String>> early = new ArrayList<>();
        int[] httpPort = {-1};
        deployer.addListener(new WebAppDeployer.Listener() {
            @Override
            public void deployed(WebApplication application) {
                say(port -> "deployed " + application.source() + " at " + url(port, application.contextPath()));
            }

            @Override
            public void undeployed(WebApplication application) {
                say(port -> "undeployed " + application.contextPath() + " (" + application.source() + ")");
            }

            @Override
            public void failed(String contextPath, Path source, Exception failure) {
                say(port -> "FAILED to deploy " + source + " at " + contextPath + ": " + failure.getMessage());
            }

            private void say(IntFunction<String> line) {
                synchronized (early) {
                    if (httpPort[0] < 0) {
                        early.add(line);
                    } else {
                        out.println(line.apply(httpPort[0]));
                    }
                }
            }
        });
        // Deployed before the connectors accept, so the first requests find the applications.
        server.addBean(deployer);
        ServerConnector http = new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        http.setPort(options.port());
        server.addConnector(http);
        ServerConnector https = null;
        if (options.httpsPort().isPresent()) {
            https = new ServerConnector(server, new TlsConnectionFactory(DemoCertificate.in(certificates)),
                new HttpConnectionFactory(), new Http2ConnectionFactory());
            https.setPort(options.httpsPort().getAsInt());
            server.addConnector(https);
        }
        server.start();
        Running running = new Running(server, deployer, http.getLocalPort(), https == null ? -1 : https.getLocalPort());
        synchronized (early) {
            httpPort[0] = running.httpPort();
            early.forEach(line -> out.println(line.apply(running.httpPort())));
        }
        return running;
    }
}
