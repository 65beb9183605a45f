package io.wharf.loadgen.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

import io.wharf.client.HttpClient;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.Resource;

/**
 * The HTTP scenario: one iteration is one {@link TreeFetch} of the resource tree by its user on
 * the run's {@link HttpClient} (each user has its own connections, by tag). Its parts are the
 * tree's resources, by {@link Resource#name()}. Over HTTP/1.1 a user runs at most as many
 * iterations at once as it has connections, and the others due meanwhile wait for one to end in
 * its {@link UserQueue} (at most {@code maxQueuedPerUser}), not as requests in the client's
 * queue; HTTP/2 multiplexes, so there every iteration is handed to the client at once. Threads as
 * {@link Scenario} says; the client's threads end the requests and start the iterations waiting.
 */
final class TreeScenario implements Scenario {

    private final Settings settings;
    private final HttpClient client;
    private final PreparedResource tree;
    private final long timeoutNanos;
    /** Each user's, by user. */
    private final UserQueue<Iteration>[] users;
    private final Consumer<Iteration> startWaiting = this::startWaiting;
    private volatile Target target;

    /** @param client not started: {@link #open()} starts it, {@link #close()} stops it */
    TreeScenario(Settings settings, HttpClient client, Resource tree) {
        this.settings = settings;
        this.client = client;
        this.tree = PreparedResource.of(tree, settings);
        this.timeoutNanos = settings.requestTimeout().toNanos();
        int running = settings.protocol() == Protocol.HTTP_1_1 ? settings.connectionsPerUser() : Integer.MAX_VALUE;
        @SuppressWarnings("unchecked")
        UserQueue<Iteration>[] queues = new UserQueue[settings.users()];
        for (int user = 0; user < queues.length; user++) {
            queues[user] = new UserQueue<>(running, settings.maxQueuedPerUser());
        }
        this.users = queues;
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
        iteration.waitBegins();
        boolean now;
        try {
            now = users[iteration.user()].offer(iteration);
        } catch (RejectedExecutionException refused) {
            iteration.waitOver();
            new TreeFetch(target, tree, iteration, timeoutNanos, () -> {
            }).fail(refused);
            return;
        }
        if (now) {
            startWaiting(iteration);
        }
    }

    /** Starts {@code iteration}, which has its place on its user's connections. */
    private void startWaiting(Iteration iteration) {
        iteration.waitOver();
        UserQueue<Iteration> user = users[iteration.user()];
        new TreeFetch(target, tree, iteration, timeoutNanos, () -> user.ended(startWaiting)).start();
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
