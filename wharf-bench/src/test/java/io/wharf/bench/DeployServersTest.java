package io.wharf.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The deploy run's WAR is what it claims — a Spring MVC application with about 60 real jars in
 * WEB-INF/lib and no servlet API among them — and each container deploys it and answers
 * {@code GET /hello} with the JSON the run waits for.
 */
@Timeout(120)
class DeployServersTest {

    @Test
    void theWarCarriesAboutSixtyJarsAndNoServletApi() throws Exception {
        try (ZipFile zip = new ZipFile(DeployMacroBenchmark.war().toFile())) {
            List<String> jars = zip.stream().map(ZipEntry::getName).filter(name -> name.startsWith("WEB-INF/lib/") && name.endsWith(".jar")).toList();
            assertTrue(jars.size() >= 55 && jars.size() <= 70, jars.size() + " jars: " + jars);
            assertTrue(jars.stream().noneMatch(jar -> jar.contains("servlet-api")), jars::toString);
            assertTrue(jars.stream().anyMatch(jar -> jar.contains("spring-webmvc")), jars::toString);
            assertTrue(zip.getEntry("WEB-INF/classes/io/wharf/bench/war/HelloController.class") != null);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"wharf", "jetty", "tomcat"})
    void everyContainerDeploysTheWarAndAnswersHello(String container) throws Exception {
        Path war = DeployMacroBenchmark.war();
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (ServerProcess.Target server = switch (container) {
            case "wharf" -> DeployServers.wharf(any, war, null);
            case "jetty" -> DeployServers.jetty(any, war);
            default -> DeployServers.tomcat(any, war);
        }) {
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/hello")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response::body);
            assertEquals(DeployMacroBenchmark.BODY, response.body());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), response.headers()::toString);
            assertTrue(server.phases().contains("start_ms"), server.phases());
        }
    }
}
