package io.wharf.loadgen.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;

import io.wharf.client.HttpClient;
import io.wharf.loadgen.Resource;

/**
 * The HTTP scenario: one iteration is one {@link TreeFetch} of the resource tree by its user on
 * the run's {@link HttpClient} (each user has its own connections, by tag). Its parts are the
 * tree's resources, by {@link Resource#name()}. Threads as {@link Scenario} says; the client's
 * threads end the requests.
 */
final class TreeScenario implements Scenario {

    private final Settings settings;
    private final HttpClient client;
    private final PreparedResource tree;
    private volatile Target target;

    /** @param client not started: {@link #open()} starts it, {@link #close()} stops it */
    TreeScenario(Settings settings, HttpClient client, Resource tree) {
        this.settings = settings;
        this.client = client;
        this.tree = PreparedResource.of(tree, settings);
    }

    @Override
    public List<String> parts() {
        Set<String> names = new LinkedHashSet<>();
        addNames(tree, names);
        return new ArrayList<>(names);
    }

    private static void addNames(PreparedResource resource, Set<String> names) {
        names.add(resource.name());
        for (PreparedResource child : resource.children()) {
            addNames(child, names);
        }
    }

    @Override
    public void open() {
        try {
            client.start();
        } catch (Exception x) {
            throw new IllegalStateException("the load generator's HTTP client did not start: " + x, x);
        }
        target = new Target(settings, client);
    }

    @Override
    public Executor executor() {
        return client.getExecutor();
    }

    @Override
    public void start(Iteration iteration) {
        new TreeFetch(target, tree, iteration).start();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            client.stop();
        } catch (InterruptedException x) {
            throw x;
        } catch (Exception x) {
            throw new IllegalStateException("the load generator's HTTP client did not stop: " + x, x);
        }
    }
}
