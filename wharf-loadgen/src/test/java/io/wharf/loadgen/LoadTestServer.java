package io.wharf.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.ServerTlsContext;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Test fixture: Wharf's server on 127.0.0.1 (ephemeral ports) with one handler, on the test's
 * leak-tracking pool: HTTP/1.1 and h2c on a plain port, http/1.1 and h2 by ALPN on a TLS port
 * with a self-signed certificate made by keytool into {@code target/} once per JVM.
 */
public final class LoadTestServer implements AutoCloseable {

    private static final String PASSWORD = "wharf-loadgen-test";

    private final Server server;
    private final ServerConnector plain;
    private final ServerConnector secure;

    public LoadTestServer(ByteBufferPool pool, Handler handler) throws Exception {
        server = new Server(new QueuedThreadPool(), pool);
        plain = new ServerConnector(server, 1, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        plain.setHost("127.0.0.1");
        server.addConnector(plain);
        secure = new ServerConnector(server, 1, new TlsConnectionFactory(tls()), new HttpConnectionFactory(), new Http2ConnectionFactory());
        secure.setHost("127.0.0.1");
        server.addConnector(secure);
        server.setHandler(handler);
        server.start();
    }

    /** @return a handler that answers at once, with the status {@code statuses} gives the path and a short text */
    public static Handler answering(ToIntFunction<String> statuses) {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.setStatus(statuses.applyAsInt(request.getHttpURI().getPath()));
            Response.write(response, true, "answer", callback);
            return true;
        });
    }

    /** @return {@code http://127.0.0.1:port/path} */
    public String uri(String path) {
        return "http://127.0.0.1:" + plain.getLocalPort() + path;
    }

    /** @return {@code https://127.0.0.1:port/path} */
    public String secureUri(String path) {
        return "https://127.0.0.1:" + secure.getLocalPort() + path;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    private static synchronized ServerTlsContext tls() throws IOException, InterruptedException {
        Path directory = Path.of("target", "loadgen-tls");
        Path store = directory.resolve("server.p12");
        if (!Files.exists(store)) {
            Files.createDirectories(directory);
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-alias", "server", "-keyalg", "EC",
                    "-validity", "30", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                    "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD))
                    .redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool failed: " + output);
            }
        }
        return new ServerTlsContext().keyStore(store, PASSWORD);
    }
}
