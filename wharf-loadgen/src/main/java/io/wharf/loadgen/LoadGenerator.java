package io.wharf.loadgen;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.wharf.http.HttpFields;
import io.wharf.loadgen.internal.LoadRun;
import io.wharf.loadgen.internal.Settings;

/**
 * A load generator on Wharf's {@link io.wharf.client.HttpClient}: built once with
 * {@link #builder(URI)}, then {@link #run()} once.
 *
 * <pre>{@code
 * LoadResult result = LoadGenerator.builder(URI.create("http://127.0.0.1:8080/"))
 *     .protocol(Protocol.H2C)
 *     .rate(2_000)                       // iterations per second, whatever the server does
 *     .duration(Duration.ofSeconds(20))  // measured, after the warm-up
 *     .warmupIterations(1_000)
 *     .intervalLog(Path.of("load.hlog"))
 *     .build()
 *     .run();
 * System.out.println(result.correctedMicros(99.9) + " µs at p99.9");
 * }</pre>
 *
 * <h2>Users, threads, connections</h2>
 * The run has {@code threads × usersPerThread} users. Each user has its own connections (at most
 * {@code connectionsPerUser}); an iteration is one fetch of the {@link Resource} tree by one user.
 * In the {@link Model#OPEN open model} the sending threads start iterations at the total rate,
 * on a schedule computed from the start and the rate (never from responses), handing them to
 * their users in turn; an iteration that finds its user's connections busy waits for one (over
 * HTTP/1.1 in the generator, over HTTP/2 in the client's queue), and its latency counts from when
 * it should have been sent. In the
 * {@link Model#CLOSED closed model} each user runs its iterations back to back.
 *
 * <h2>A chat room</h2>
 * {@link #chat(URI)} loads a WebSocket chat room instead ({@code ./wharf chat-load}): each user
 * is a member, each iteration a message that one member says and every member hears; see
 * docs/loadgen.md.
 *
 * <p><b>Threads.</b> {@link #run()} blocks its caller until the run is over; {@link #stop()} may
 * be called from any thread to end it early.
 */
public final class LoadGenerator {

    private final LoadRun run;

    private LoadGenerator(Settings settings) {
        this.run = new LoadRun(settings);
    }

    /** @return a builder of a generator loading {@code target} (http or https) */
    public static Builder builder(URI target) {
        return new Builder(target, false);
    }

    /**
     * @return a builder of a generator loading the WebSocket chat room at {@code room} ({@code ws} or
     *     {@code wss}; the room of {@code ./wharf demo} speaks its protocol, see
     *     {@link io.wharf.loadgen.LoadGenerator.Builder#window}): each user is a member, each
     *     iteration one message broadcast to every member; {@link #CHAT_MESSAGES} and
     *     {@link #CHAT_DELIVERIES} name its parts in {@link LoadResult#resources()}
     */
    public static Builder chat(URI room) {
        return new Builder(room, true);
    }

    /**
     * The part of a chat run's result for its messages: each counted once, with its latency to
     * the last member's delivery (a message not delivered to every member is an error).
     */
    public static final String CHAT_MESSAGES = "messages";

    /**
     * The part of a chat run's result for its deliveries: one per message and member, with each
     * one's latency from the message's intended send time; its errors are the deliveries missing.
     */
    public static final String CHAT_DELIVERIES = "deliveries";

    /**
     * Runs the load: warm-up, then the measured iterations or duration, then waits (at most the
     * request timeout) for the requests still in flight.
     *
     * @return what was measured
     * @throws IllegalStateException when called twice
     * @throws java.io.UncheckedIOException when the interval log cannot be written
     */
    public LoadResult run() throws InterruptedException {
        return run.run();
    }

    /** Ends the run early: no more iterations start; {@link #run()} returns once the requests in flight are over. */
    public void stop() {
        run.stop();
    }

    /** Sets up a {@link LoadGenerator}; for one thread. Every setting has a default but the target. */
    public static final class Builder {

        private final URI target;
        private final boolean chat;
        private int window = 64;
        private boolean windowSet;
        private Protocol protocol = Protocol.HTTP_1_1;
        private boolean insecure;
        private int threads = 1;
        private int usersPerThread = 1;
        private int connectionsPerUser = 1;
        private Resource resource;
        private String method = "GET";
        private final HttpFields.Mutable headers = HttpFields.build();
        private byte[] body;
        private String contentType = "application/octet-stream";
        private Model model = Model.OPEN;
        private double rate = 100;
        private Duration rampUp = Duration.ZERO;
        private long warmupIterations;
        private long iterations;
        private Duration duration = Duration.ofSeconds(10);
        private Duration thinkTime = Duration.ZERO;
        private Duration requestTimeout = Duration.ofSeconds(30);
        private Duration reportInterval = Duration.ofSeconds(1);
        private Duration behindThreshold = Duration.ofMillis(10);
        private int maxQueuedPerUser = 100_000;
        private double probeRate;
        private Path intervalLog;
        private final List<LoadListener> listeners = new ArrayList<>();

        private Builder(URI target, boolean chat) {
            this.target = Objects.requireNonNull(target, "target");
            this.chat = chat;
        }

        /** Sets the protocol: HTTP/1.1 (the default), h2c or h2. */
        public Builder protocol(Protocol protocol) {
            this.protocol = Objects.requireNonNull(protocol, "protocol");
            return this;
        }

        /** Trusts any server certificate, unchecked: for test servers only. Off by default. */
        public Builder insecure(boolean insecure) {
            this.insecure = insecure;
            return this;
        }

        /** Sets the number of sending threads (1 by default). */
        public Builder threads(int threads) {
            this.threads = positive(threads, "threads");
            return this;
        }

        /** Sets the users of each thread (1 by default); each user has its own connections. */
        public Builder usersPerThread(int users) {
            this.usersPerThread = positive(users, "usersPerThread");
            return this;
        }

        /** Sets the connections a user may open (1 by default; a browser opens up to 6 for HTTP/1.1). */
        public Builder connectionsPerUser(int connections) {
            this.connectionsPerUser = positive(connections, "connectionsPerUser");
            return this;
        }

        /** Sets the tree one iteration fetches; by default the target's own path alone. */
        public Builder resource(Resource resource) {
            this.resource = Objects.requireNonNull(resource, "resource");
            return this;
        }

        /** Sets the method of every request ({@code GET} by default) but those of resources with their own ({@link Resource#with}). */
        public Builder method(String method) {
            this.method = Objects.requireNonNull(method, "method");
            return this;
        }

        /** Adds a header field to every request. */
        public Builder header(String name, String value) {
            headers.add(name, value);
            return this;
        }

        /** Sets the content of every request and its type, but those of resources with their own ({@link Resource#with}). */
        public Builder body(byte[] content, String type) {
            this.body = content.clone();
            this.contentType = Objects.requireNonNull(type, "type");
            return this;
        }

        /** Sets the content of every request as UTF-8 text of {@code type}. */
        public Builder body(String content, String type) {
            return body(content.getBytes(StandardCharsets.UTF_8), type);
        }

        /** Sets the model: {@link Model#OPEN} (the default) or {@link Model#CLOSED}. */
        public Builder model(Model model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /** Sets the total rate of the open model, in iterations per second (100 by default). */
        public Builder rate(double perSecond) {
            if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
                throw new IllegalArgumentException("the rate must be a positive number of iterations per second, not " + perSecond);
            }
            this.rate = perSecond;
            return this;
        }

        /** Sets the time over which the open model's rate grows linearly from 0 to the rate (none by default). */
        public Builder rampUp(Duration rampUp) {
            this.rampUp = notNegative(rampUp, "rampUp");
            return this;
        }

        /** Sets the iterations run first and left out of every result (0 by default). */
        public Builder warmupIterations(long iterations) {
            this.warmupIterations = notNegative(iterations, "warmupIterations");
            return this;
        }

        /** Runs this many measured iterations, instead of a duration. */
        public Builder iterations(long iterations) {
            this.iterations = positive(iterations, "iterations");
            return this;
        }

        /** Runs the measured part for this long (10 s by default), unless a number of iterations is set. */
        public Builder duration(Duration duration) {
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException("the duration must be positive, not " + duration);
            }
            this.duration = duration;
            return this;
        }

        /** Sets the pause of a closed-model user between its iterations (none by default). */
        public Builder thinkTime(Duration thinkTime) {
            this.thinkTime = notNegative(thinkTime, "thinkTime");
            return this;
        }

        /** Bounds each exchange (30 s by default); one that takes longer fails with a timeout, counted as an error. */
        public Builder requestTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("the request timeout must be positive, not " + timeout);
            }
            this.requestTimeout = timeout;
            return this;
        }

        /** Sets the length of a reporting interval (1 s by default): of the interval log and of {@link LoadListener#onInterval}. */
        public Builder reportInterval(Duration interval) {
            if (interval.toMillis() < 10) {
                throw new IllegalArgumentException("the report interval must be 10 ms or more, not " + interval);
            }
            this.reportInterval = interval;
            return this;
        }

        /** Sets how late a request may get its connection before the generator reports itself behind (10 ms by default). */
        public Builder behindThreshold(Duration threshold) {
            this.behindThreshold = notNegative(threshold, "behindThreshold");
            return this;
        }

        /**
         * Bounds the iterations (over HTTP/2, the requests) waiting for a user's connections
         * (100,000 by default); one more fails with a
         * {@link java.util.concurrent.RejectedExecutionException}, counted as an error.
         */
        public Builder maxQueuedPerUser(int max) {
            this.maxQueuedPerUser = positive(max, "maxQueuedPerUser");
            return this;
        }

        /**
         * Adds a probe: one more user that requests the tree's root at {@code perSecond} (a low
         * rate: 1 to 10) on a connection of its own through the measured part, so that its
         * latencies ({@link LoadResult#probe()}) are what a newcomer sees beside the load.
         */
        public Builder probe(double perSecond) {
            if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
                throw new IllegalArgumentException("the probe's rate must be a positive number of requests per second, not " + perSecond);
            }
            this.probeRate = perSecond;
            return this;
        }

        /**
         * Writes the HdrHistogram interval log to {@code file}: latencies in µs tagged corrected, uncorrected, trees,
         * probe and resource:NAME, and each interval's counts and errors by kind on a comment line (see docs/loadgen.md).
         */
        public Builder intervalLog(Path file) {
            this.intervalLog = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * Chat runs: bounds the messages on their way at once (64 by default) — sent and not yet
         * delivered to every member — since the room closes a member that cannot keep up (1008).
         * A message due while the window is full waits for a place (at most
         * {@link #maxQueuedPerUser} of them); its latency still counts from its intended time,
         * and its wait shows in the {@link ScheduleLag} like a request's wait for a connection.
         */
        public Builder window(int messages) {
            this.window = positive(messages, "window");
            this.windowSet = true;
            return this;
        }

        /** Adds a listener of the run's events. */
        public Builder listener(LoadListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * @return the generator
         * @throws IllegalArgumentException when the target does not fit the protocol or has no host
         */
        public LoadGenerator build() {
            if (chat) {
                checkRoom();
            } else {
                protocol.check(target);
            }
            if (target.getHost() == null) {
                throw new IllegalArgumentException("the target " + target + " has no host");
            }
            if (chat) {
                return new LoadGenerator(settings(Resource.of(CHAT_MESSAGES)));
            }
            if (windowSet) {
                throw new IllegalArgumentException("the send window is for chat runs (LoadGenerator.chat); an HTTP run's users are"
                        + " bounded by their connections");
            }
            Resource tree = resource != null ? resource : Resource.of(target.getRawPath() == null || target.getRawPath().isEmpty()
                    ? (target.getRawQuery() == null ? "/" : "/?" + target.getRawQuery())
                    : target.getRawPath() + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery()));
            checkResolves(tree);
            return new LoadGenerator(settings(tree));
        }

        private Settings settings(Resource tree) {
            return new Settings(target, chat, protocol, insecure, threads, usersPerThread, connectionsPerUser,
                    tree, method, HttpFields.build(headers).asImmutable(), body, contentType, model, rate, rampUp, warmupIterations,
                    iterations, duration, thinkTime, requestTimeout, reportInterval, behindThreshold, maxQueuedPerUser, probeRate,
                    intervalLog, List.copyOf(listeners), window);
        }

        /** @throws IllegalArgumentException for a chat run's target or setting that does not fit a chat room */
        private void checkRoom() {
            String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(java.util.Locale.ROOT);
            boolean fits = switch (protocol) {
                case HTTP_1_1 -> scheme.equals("ws") || scheme.equals("wss");
                case H2C -> scheme.equals("ws");
                case H2 -> scheme.equals("wss");
            };
            if (!fits) {
                throw new IllegalArgumentException("a chat room over " + protocol + " is a "
                        + (protocol == Protocol.H2 ? "wss" : protocol == Protocol.H2C ? "ws" : "ws or wss") + " URI, not " + target);
            }
            if (resource != null || body != null || !method.equals("GET") || probeRate > 0 || connectionsPerUser != 1) {
                throw new IllegalArgumentException("a chat run sends messages on one connection per member: resources, a method,"
                        + " a body, more connections per user and the probe are for HTTP runs");
            }
        }

        /** @throws IllegalArgumentException naming the first resource that is not an http or https URI against the target */
        private void checkResolves(Resource node) {
            URI uri;
            try {
                uri = target.resolve(node.path());
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException("the resource '" + node.path() + "' is not a URI reference: " + x.getMessage(), x);
            }
            if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                throw new IllegalArgumentException("the resource '" + node.path() + "' is not an http or https URL: " + uri);
            }
            for (Resource child : node.children()) {
                checkResolves(child);
            }
        }

        private static int positive(int value, String name) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive, not " + value);
            }
            return value;
        }

        private static long positive(long value, String name) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive, not " + value);
            }
            return value;
        }

        private static long notNegative(long value, String name) {
            if (value < 0) {
                throw new IllegalArgumentException(name + " must not be negative, not " + value);
            }
            return value;
        }

        private static Duration notNegative(Duration value, String name) {
            if (value.isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative, not " + value);
            }
            return value;
        }
    }
}
