package io.wharf.loadgen.internal;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import io.wharf.client.HttpClient;
import io.wharf.http.HttpField;
import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.Resource;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.Scheduler;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.client.ClientUpgradeRequest;
import io.wharf.websocket.client.WebSocketClient;

/**
 * The WebSocket chat room as a {@link Scenario}. Before the schedule, every user becomes a member
 * of the room ({@code ?name=...}, at most 64 handshakes at once, over HTTP/1.1 or, for h2c and h2,
 * over HTTP/2 as RFC 8441 says) and waits until it heard its own join, so that all are in the
 * room (each handshake, and the joins, bounded by the request timeout but never less than 15 s). One iteration is one message, spoken by its user's member: its text carries the run, its
 * id and its intended send time ({@link #text}). The room broadcasts it to every member, the
 * speaker included; the message is over when the last member's copy arrived, and its latencies
 * are counted to then — corrected from its intended time, uncorrected from when it was handed to
 * the speaker's session (after waiting, if it had to, for a place in the {@link SendWindow}).
 * Each member's copy is also a {@link LoadGenerator#CHAT_DELIVERIES} arrival. A message not
 * heard by every member within the request timeout (counted from when it was due to be handed
 * over) fails with a {@link MissingDeliveriesException}, and the members that did not hear it
 * are counted as deliveries missing; a message its member could not send (closed by the room,
 * say) fails with the send's failure, all its deliveries missing.
 *
 * <p><b>Threads.</b> As {@link Scenario} says; deliveries and send completions come on the
 * client's selector threads, timeouts on its scheduler thread, waiting sends on its executor.
 */
final class ChatScenario implements Scenario, ChatMember.Deliveries {

    private static final Resource MESSAGE = Resource.of(LoadGenerator.CHAT_MESSAGES);
    /** The joins' bound when the request timeout is shorter: a short bound on messages must not fail a cold start. */
    private static final Duration MIN_JOIN_TIMEOUT = Duration.ofSeconds(15);

    private final Settings settings;
    private final Duration joinTimeout;
    private final HttpClient http;
    private final String run = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(2);
    private final List<ChatMember> members = new ArrayList<>();
    private final ConcurrentHashMap<Long, Broadcast> onTheirWay = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile SendWindow window;

    ChatScenario(Settings settings) {
        this.settings = settings;
        this.joinTimeout = settings.requestTimeout().compareTo(MIN_JOIN_TIMEOUT) > 0 ? settings.requestTimeout() : MIN_JOIN_TIMEOUT;
        this.http = new HttpClient();
        http.setConnectTimeout(joinTimeout);
        http.setTrustAllCertificatesInsecurely(settings.insecure());
    }

    @Override
    public List<String> parts() {
        return List.of(LoadGenerator.CHAT_MESSAGES, LoadGenerator.CHAT_DELIVERIES);
    }

    /** @return the text of message {@code id} of this run, due at {@code intendedNanos} */
    String text(long id, long intendedNanos) {
        return "chatload " + run + " " + id + " " + intendedNanos;
    }

    @Override
    public void open() throws InterruptedException {
        try {
            http.start();
        } catch (Exception x) {
            throw new IllegalStateException("the chat load's HTTP client did not start: " + x, x);
        }
        window = new SendWindow(settings.window(), settings.maxQueuedPerUser(), http.getExecutor());
        WebSocketClient client = new WebSocketClient(http);
        client.setHandshakeTimeout(joinTimeout);
        ClientUpgradeRequest request = ClientUpgradeRequest.defaults().withHttp2(settings.protocol() != Protocol.HTTP_1_1);
        for (HttpField field : settings.headers()) {
            request = request.withHeader(field.getName(), field.getValue());
        }
        CountDownLatch joined = new CountDownLatch(settings.users());
        Semaphore handshakes = new Semaphore(64);
        List<CompletableFuture<Session>> connects = new ArrayList<>();
        String room = settings.target().toString();
        for (int user = 0; user < settings.users(); user++) {
            ChatMember member = new ChatMember("load" + run + "-" + user, "chatload " + run + " ", this, joined);
            members.add(member);
            handshakes.acquire();
            CompletableFuture<Session> connect = client.connect(member,
                    URI.create(room + (settings.target().getRawQuery() == null ? "?" : "&") + "name=" + member.name()), request);
            connect.whenComplete((session, failure) -> handshakes.release());
            connects.add(connect);
        }
        int failed = 0;
        Throwable first = null;
        for (CompletableFuture<Session> connect : connects) {
            try {
                // Each connect ends by itself within the handshake timeout; the extra second only guards against a bug.
                connect.get(joinTimeout.toNanos() + TimeUnit.SECONDS.toNanos(1), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException x) {
                failed++;
                first = first != null ? first : x.getCause() != null ? x.getCause() : x;
            }
        }
        if (failed > 0) {
            throw new IllegalStateException(failed + " of " + members.size() + " members could not connect to " + room + ": " + first, first);
        }
        awaitJoins(joined, room);
    }

    /**
     * Waits until every member heard its own join: as long as joins keep coming (each goes to
     * every member present, so a thousand take a while), at most the join timeout without one.
     */
    private void awaitJoins(CountDownLatch joined, String room) throws InterruptedException {
        long left = joined.getCount();
        long progress = System.nanoTime();
        while (!joined.await(50, TimeUnit.MILLISECONDS)) {
            long now = System.nanoTime();
            if (joined.getCount() != left) {
                left = joined.getCount();
                progress = now;
            } else if (now - progress > joinTimeout.toNanos()) {
                throw new IllegalStateException(left + " of " + members.size() + " members did not hear their own join in " + room
                        + " (none came for " + joinTimeout.toMillis() + " ms): is it a chat room?");
            }
        }
    }

    @Override
    public Executor executor() {
        return http.getExecutor();
    }

    @Override
    public void start(Iteration iteration) {
        Broadcast message = new Broadcast(ids.getAndIncrement(), iteration);
        iteration.exchangeSent(MESSAGE, iteration.intendedNanos());
        onTheirWay.put(message.id, message);
        message.startTimer();
        try {
            window.acquire(message::send);
        } catch (RejectedExecutionException full) {
            message.giveUp(System.nanoTime(), missing -> full);
        }
    }

    @Override
    public void delivered(long id, long nowNanos) {
        Broadcast message = onTheirWay.get(id);
        if (message != null) {
            message.delivered(nowNanos);
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (ChatMember member : members) {
            member.leave();
        }
        try {
            http.stop();
        } catch (InterruptedException x) {
            throw x;
        } catch (Exception x) {
            throw new IllegalStateException("the chat load's HTTP client did not stop: " + x, x);
        }
    }

    /**
     * One message on its way: how many members have yet to hear it, its place in the window and
     * its timer. Whoever brings {@code remaining} to 0 ends it, exactly once: the last member's
     * delivery (a success), or a failure or the timeout, which count the members left as missing.
     */
    private final class Broadcast {

        private final long id;
        private final Iteration iteration;
        private final AtomicInteger remaining = new AtomicInteger(members.size());
        private final AtomicBoolean placeGivenBack = new AtomicBoolean();
        private volatile long began = -1;
        private volatile boolean holdsPlace;
        private volatile boolean over;
        private volatile Scheduler.Task timer;

        Broadcast(long id, Iteration iteration) {
            this.id = id;
            this.iteration = iteration;
        }

        /** Bounds the message by the request timeout, counted from when it was handed over. */
        void startTimer() {
            long left = settings.requestTimeout().toNanos() - (System.nanoTime() - iteration.dispatchedNanos());
            timer = http.getScheduler().schedule(() -> giveUp(System.nanoTime(), missing -> new MissingDeliveriesException("message " + id
                    + " reached " + (members.size() - missing) + " of " + members.size() + " members within "
                    + settings.requestTimeout().toMillis() + " ms")), Math.max(0, left), TimeUnit.NANOSECONDS);
            if (over) {
                timer.cancel();
            }
        }

        /** Runs when the window gave the message a place: its speaker sends it. */
        void send() {
            holdsPlace = true;
            if (over) {
                // It timed out while it waited: the place goes on to the next.
                givePlaceBack();
                return;
            }
            ChatMember speaker = members.get(iteration.user());
            Session session = speaker.session();
            long now = System.nanoTime();
            if (session == null) {
                giveUp(now, missing -> new MemberClosedException(speaker.whyClosed()));
                return;
            }
            began = now;
            iteration.firstBegan(now);
            session.sendText(text(id, iteration.intendedNanos()), Callback.from(InvocationType.NON_BLOCKING, () -> { },
                    failure -> giveUp(System.nanoTime(), missing -> failure)));
        }

        /** One member heard it. */
        void delivered(long now) {
            int before = remaining.getAndUpdate(left -> left > 0 ? left - 1 : left);
            if (before <= 0) {
                // It was given up before this copy came: counted as missing.
                return;
            }
            iteration.partArrived(LoadGenerator.CHAT_DELIVERIES, now - iteration.intendedNanos());
            if (before == 1) {
                end(null, now);
            }
        }

        /** Ends it as failed, the members that have not heard it missing; nothing when the last one just did. */
        void giveUp(long now, IntFunction<Throwable> why) {
            int missing = remaining.getAndSet(0);
            if (missing > 0) {
                iteration.partMissed(LoadGenerator.CHAT_DELIVERIES, missing);
                end(why.apply(missing), now);
            }
        }

        /** Ends it: called once, by whoever brought {@code remaining} to 0. */
        private void end(Throwable failure, long now) {
            over = true;
            Scheduler.Task current = timer;
            if (current != null) {
                current.cancel();
            }
            givePlaceBack();
            onTheirWay.remove(id);
            long start = began;
            iteration.exchangeEnded(MESSAGE, LoadGenerator.CHAT_MESSAGES, 0, failure, now - iteration.intendedNanos(), start < 0 ? -1 : now - start, now);
            iteration.ended(MESSAGE, failure == null ? 0 : 1, now);
        }

        private void givePlaceBack() {
            if (holdsPlace && placeGivenBack.compareAndSet(false, true)) {
                window.release();
            }
        }
    }
}
