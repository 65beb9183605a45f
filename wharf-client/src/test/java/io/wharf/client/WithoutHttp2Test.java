package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.wharf.client.standalone.Http1OnlyClient;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that speaks only HTTP/1.1 runs without wharf-http2: {@link Http1OnlyClient} runs in a
 * JVM that has no wharf-http2 (on its class path; or with io.wharf.client and the modules it
 * requires on its module path) and GETs from a server of this JVM.
 */
@Timeout(90)
class WithoutHttp2Test {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @TempDir
    Path directory;

    @Test
    void anHttp1ClientRunsWithoutHttp2OnTheClassPath() throws Exception {
        TestServer server = server();
        List<String> entries = classPath();
        assertTrue(entries.stream().anyMatch(WithoutHttp2Test::isHttp2), "this JVM's class path has wharf-http2: " + entries);
        String classPath = entries.stream().filter(entry -> !isHttp2(entry)).collect(Collectors.joining(File.pathSeparator));
        assertFalse(classPath.contains("wharf-http2"), classPath);
        String printed = run(List.of("-cp", classPath, Http1OnlyClient.class.getName(), server.uri("/")));
        assertTrue(printed.contains("200 without h2"), printed);
    }

    @Test
    void anHttp1ClientRunsWithoutHttp2OnTheModulePath() throws Exception {
        TestServer server = server();
        List<String> entries = classPath();
        String modulePath = entries.stream().filter(WithoutHttp2Test::isClientModule).collect(Collectors.joining(File.pathSeparator));
        // wharf-client, wharf-http, wharf-io, wharf-util and SLF4J: io.wharf.client and what it requires.
        assertEquals(5, modulePath.split(File.pathSeparator).length, modulePath);
        String testClasses = entries.stream().filter(entry -> entry.endsWith("test-classes")).collect(Collectors.joining(File.pathSeparator));
        String printed = run(List.of("--module-path", modulePath, "--add-modules", "io.wharf.client", "-cp", testClasses,
                Http1OnlyClient.class.getName(), server.uri("/")));
        assertTrue(printed.contains("200 without h2"), printed);
    }

    @Test
    void anHttp2ClientWithoutHttp2OnTheModulePathIsRefusedNamingTheModule() throws Exception {
        List<String> entries = classPath();
        String modulePath = entries.stream().filter(WithoutHttp2Test::isClientModule).collect(Collectors.joining(File.pathSeparator));
        String testClasses = entries.stream().filter(entry -> entry.endsWith("test-classes")).collect(Collectors.joining(File.pathSeparator));
        String printed = run(List.of("--module-path", modulePath, "--add-modules", "io.wharf.client", "-cp", testClasses,
                Http1OnlyClient.class.getName(), "refused", "DYNAMIC"));
        assertTrue(printed.contains("refused: HttpTransport.DYNAMIC needs the module io.wharf.http2 (wharf-http2)"), printed);
    }

    private TestServer server() throws Exception {
        return loopback.server(Handler.of((request, response, callback) -> {
            Response.write(response, true, "without h2", callback);
            return true;
        }));
    }

    private static List<String> classPath() {
        return Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
    }

    /** @return what a JVM started with {@code arguments} printed; it must end, with status 0, within 60 s */
    private String run(List<String> arguments) throws Exception {
        Path output = Files.createTempFile(directory, "output", ".txt");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(arguments);
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the client JVM did not end");
        } finally {
            child.destroyForcibly();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), printed);
        return printed;
    }

    /** @return whether a class path entry is io.wharf.client or a module it requires, wharf-http2 aside */
    private static boolean isClientModule(String entry) {
        Path path = Path.of(entry);
        String name = path.getFileName() == null ? "" : path.getFileName().toString();
        if (name.matches("slf4j-api-[0-9.]+\\.jar")) {
            return true;
        }
        for (String module : List.of("wharf-client", "wharf-http", "wharf-io", "wharf-util")) {
            if (path.endsWith(Path.of(module, "target", "classes")) || name.matches(module + "-[0-9.]+(-SNAPSHOT)?\\.jar")) {
                return true;
            }
        }
        return false;
    }

    /** @return whether a class path entry is wharf-http2 (the reactor's classes or its jar) */
    private static boolean isHttp2(String entry) {
        Path path = Path.of(entry);
        return path.toString().contains(File.separator + "wharf-http2" + File.separator)
                || (path.getFileName() != null && path.getFileName().toString().startsWith("wharf-http2"));
    }
}
