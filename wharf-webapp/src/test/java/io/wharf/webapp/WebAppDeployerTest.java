package io.wharf.webapp;

import static io.wharf.testing.RawResponse.content;
import static io.wharf.testing.RawResponse.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import webapps.BrokenListener;

/** The deployer on a running server: names, deploy at start, redeploy and undeploy on change, failures, and no leaked loader. */
class WebAppDeployerTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path temp;

    private DeployTester tester;
    private WebAppDeployer deployer;
    private Path webapps;
    private final List<String> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() {
        Gate.reset();
        tester = new DeployTester(leaks.pool(), temp);
        webapps = temp.resolve("webapps");
        deployer = new WebAppDeployer(tester.contexts, tester.settings);
        deployer.setWebappsDirectory(webapps);
        // The tests scan themselves, so that each step is taken when they say.
        deployer.setScanInterval(Duration.ZERO);
        deployer.addListener(new WebAppDeployer.Listener() {
            @Override
            public void deployed(WebApplication application) {
                events.add("deployed " + application.contextPath());
            }

            @Override
            public void undeployed(WebApplication application) {
                events.add("undeployed " + application.contextPath());
            }

            @Override
            public void failed(String contextPath, Path source, Exception failure) {
                events.add("failed " + contextPath + ": " + failure.getMessage());
            }
        });
        tester.server.addBean(deployer);
    }

    @AfterEach
    void tearDown() throws Exception {
        Gate.open();
        tester.close();
    }

    /** Two scans: the first sees a change, the second (the change unchanged) acts on it. */
    private void scanTwice() {
        deployer.scan();
        deployer.scan();
    }

    private static FileTime at(int seconds) {
        return FileTime.fromMillis(1_700_000_000_000L + seconds * 1000L);
    }

    @Test
    void deploysTheWebappsDirectoryAtStartByName() throws Exception {
        TestApps.slow("root").writeZip(webapps.resolve("ROOT.war"));
        TestApps.slow("shop").writeDirectory(webapps.resolve("shop"));
        TestApps.slow("admin war").writeZip(webapps.resolve("admin.war"));
        TestApps.slow("admin directory").writeDirectory(webapps.resolve("admin"));
        TestApps.slow("nested").writeZip(webapps.resolve("shop#admin.war"));
        Files.writeString(webapps.resolve("README.txt"), "not an application");
        TestApps.slow("hidden").writeZip(webapps.resolve(".hidden.war"));

        tester.start();

        assertEquals("version root", content(tester.get("/version")));
        assertEquals("version shop", content(tester.get("/shop/version")));
        assertEquals("version admin war", content(tester.get("/admin/version")), "a WAR beside a directory of its name counts, once");
        assertEquals("version nested", content(tester.get("/shop/admin/version")));
        assertEquals(List.of("/", "/admin", "/shop", "/shop/admin"), List.copyOf(deployer.applications().keySet()));
    }

    @Test
    void deploysAddedApplicationsAndWaitsForAChangeToSettle() throws Exception {
        Path war = TestApps.slow("one").writeZip(temp.resolve("elsewhere/app.war"), at(1));
        deployer.addWebApp("/app", war);
        tester.start();
        assertEquals("version one", content(tester.get("/app/version")));

        TestApps.slow("two").writeZip(war, at(2));
        deployer.scan();
        assertEquals("version one", content(tester.get("/app/version")), "a change is acted on once it has held for one scan");
        deployer.scan();
        assertEquals("version two", content(tester.get("/app/version")));
        assertEquals(List.of("deployed /app", "deployed /app", "undeployed /app"), events);
    }

    @Test
    void aRedeployLetsTheOldVersionFinishItsRequestWhileTheNewOneServes() throws Exception {
        Path war = TestApps.slow("v1").writeZip(webapps.resolve("app.war"), at(1));
        tester.start();
        WebApplication first = deployer.applications().get("/app");
        // Threads of their own: the common pool may have a single one on a small machine.
        Executor threads = task -> Thread.ofPlatform().daemon().start(task);
        CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> {
            try {
                return tester.get("/app/version?wait");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, threads);
        assertTrue(Gate.awaitEntered(), "the slow request reached v1");

        TestApps.slow("v2").writeZip(war, at(2));
        deployer.scan();
        CompletableFuture<Void> redeploy = CompletableFuture.runAsync(deployer::scan, threads);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (events.stream().filter("deployed /app"::equals).count() < 2) {
            assertTrue(System.nanoTime() < deadline, "v2 was not deployed: " + events);
            Thread.sleep(10);
        }
        assertEquals("version v2", content(tester.get("/app/version")), "new requests go to v2 while v1 finishes");
        assertEquals(1, first.requestsInFlight());
        assertEquals(List.of(), Gate.events(), "v1 is neither answered nor destroyed yet");

        Gate.open();
        String answer = inFlight.get(10, TimeUnit.SECONDS);
        redeploy.get(10, TimeUnit.SECONDS);
        assertEquals(200, status(answer), answer);
        assertEquals("version v1", content(answer));
        assertEquals(List.of("v1 answered", "v1 destroyed"), Gate.events(), "v1 stopped only after its request finished");
        assertTrue(!Files.exists(first.workDirectory()));
    }

    @Test
    void aFailingDeploymentIsLoggedAndLeavesTheOthersRunning() throws Exception {
        TestApps.slow("good").writeZip(webapps.resolve("good.war"), at(1));
        new Archive().text("WEB-INF/web.xml", "<web-app xmlns=\"http://xmlns.jcp.org/xml/ns/javaee\" version=\"4.0\"/>")
            .writeZip(webapps.resolve("legacy.war"), at(1));
        tester.start();

        assertEquals("version good", content(tester.get("/good/version")));
        assertEquals(404, status(tester.get("/legacy/")));
        assertTrue(events.stream().anyMatch(event -> event.startsWith("failed /legacy: ") && event.contains("is a javax.servlet application")),
            events.toString());

        // A broken new version leaves the running one in place, and is not retried until it changes.
        new Archive().webXml("<listener><listener-class>webapps.Nowhere</listener-class></listener>")
            .writeZip(webapps.resolve("good.war"), at(2));
        scanTwice();
        scanTwice();
        assertEquals("version good", content(tester.get("/good/version")));
        assertEquals(1, events.stream().filter(event -> event.startsWith("failed /good")).count(), events.toString());

        TestApps.slow("fixed").writeZip(webapps.resolve("good.war"), at(3));
        scanTwice();
        assertEquals("version fixed", content(tester.get("/good/version")));
    }

    @Test
    void aClassThatCannotInitializeFailsItsApplicationNotTheDeployer() throws Exception {
        TestApps.slow("good").writeZip(webapps.resolve("good.war"), at(1));
        new Archive().webXml("<listener><listener-class>webapps.BrokenListener</listener-class></listener>")
            .classes("WEB-INF/classes/", BrokenListener.class)
            .writeZip(webapps.resolve("broken.war"), at(1));
        tester.start();

        assertTrue(events.stream().anyMatch(event -> event.startsWith("failed /broken: java.lang.ExceptionInInitializerError")),
            events.toString());
        TestApps.slow("better").writeZip(webapps.resolve("good.war"), at(2));
        scanTwice();
        assertEquals("version better", content(tester.get("/good/version")), "the deployer goes on");
    }

    @Test
    void aRemovedApplicationIsUndeployed() throws Exception {
        Path war = TestApps.slow("gone soon").writeZip(webapps.resolve("app.war"));
        tester.start();
        assertEquals(200, status(tester.get("/app/version")));

        Files.delete(war);
        deployer.scan();

        assertEquals(404, status(tester.get("/app/version")));
        assertEquals(Map.of(), deployer.applications());
        assertEquals(List.of("deployed /app", "undeployed /app"), events);
    }

    /**
     * Fifty redeploys of an application that loads classes, runs an initializer, looks up JNDI
     * and answers requests: once undeployed, nothing may hold any of its class loaders.
     */
    @Test
    void fiftyRedeploysLeaveNoClassLoaderBehind() throws Exception {
        Path war = TestApps.full().writeZip(webapps.resolve("app.war"), at(0));
        tester.start();
        List<WeakReference<ClassLoader>> loaders = new ArrayList<>();
        for (int i = 1; i <= 50; i++) {
            WebApplication before = deployer.applications().get("/app");
            assertEquals(200, status(tester.get("/app/hello")));
            assertTrue(content(tester.get("/app/env")).startsWith("greeting=ahoy"));
            assertEquals(200, status(tester.get("/app/plugins")));
            loaders.add(new WeakReference<>(before.classLoader()));
            before = null;
            TestApps.full().writeZip(war, at(i));
            scanTwice();
            assertNotSame(loaders.get(i - 1).get(), deployer.applications().get("/app").classLoader(), "redeploy " + i);
        }
        deployer.stop();
        assertEquals(Map.of(), deployer.applications());

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (loaders.stream().anyMatch(loader -> loader.get() != null) && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(50);
        }
        List<Integer> pinned = new ArrayList<>();
        for (int i = 0; i < loaders.size(); i++) {
            if (loaders.get(i).get() != null) {
                pinned.add(i + 1);
            }
        }
        assertEquals(List.of(), pinned, "deployments whose class loader is still reachable after undeploy"
            + " (take a heap dump here and look at the paths to WebAppClassLoader)");
    }

    @Test
    void theLeakCheckSeesAPinnedLoader() throws Exception {
        TestApps.full().writeZip(webapps.resolve("app.war"));
        tester.start();
        ClassLoader pinned = deployer.applications().get("/app").classLoader();
        WeakReference<ClassLoader> reference = new WeakReference<>(pinned);
        deployer.stop();
        for (int i = 0; i < 5; i++) {
            System.gc();
        }
        assertSame(pinned, reference.get(), "a loader still referenced is not collected: the check above can fail");
    }
}
