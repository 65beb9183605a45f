package io.wharf.examples;

import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.client.HttpClient;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.client.WebSocketClient;
import io.wharf.websocket.core.CloseStatus;

/**
 * {@code ./wharf chat-load}: a load client for the demo's chat room on {@link WebSocketClient}.
 * It opens N members ({@code ?name=load0} ...), waits until each has heard its own join (so all
 * are in the room), then has random members speak until M messages were sent, at most
 * {@code --window} of them on their way at once (a message is on its way until every member
 * heard it: the room closes a member whose queue overflows, so an unbounded sender would
 * measure that, not the room). Every broadcast must reach every member: the expected
 * deliveries are M × N. Each message's text carries its send time, so each delivery gives a
 * send→receive latency. It stops by itself: when all deliveries arrived, or when none has
 * arrived for {@code --quiet} seconds; missing deliveries make it exit with status 1.
 *
 * <pre>
 * ./wharf chat-load --clients 1000 --messages 10000 [--uri ws://localhost:8080/chat/ws] [--window 64] [--quiet 10]
 * </pre>
 *
 * <p><b>Threads.</b> Members are NON_BLOCKING listeners: deliveries are counted on the
 * client's selector threads; one sender thread paces the messages.
 */
public final class ChatLoad {

    private static final String PREFIX = "chatload ";

    /**
     * @param clients how many members to open
     * @param messages how many messages to send in all
     * @param uri the room's WebSocket URI, without the name
     * @param window the most messages on their way at once
     * @param quiet how long without a delivery before giving up
     */
    public record Options(int clients, int messages, URI uri, int window, Duration quiet) {

        public Options {
            if (clients < 1 || messages < 0 || window < 1) {
                throw new IllegalArgumentException("clients, window >= 1 and messages >= 0: " + clients + "/" + messages + "/" + window);
            }
        }

        /** @return options from {@code --clients N --messages M --uri U --window W --quiet S} */
        public static Options parse(String... args) {
            int clients = 1000;
            int messages = 10_000;
            URI uri = URI.create("ws://localhost:8080/chat/ws");
            int window = 64;
            Duration quiet = Duration.ofSeconds(10);
            for (int i = 0; i < args.length; i++) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                if (value == null) {
                    throw new IllegalArgumentException("no value after " + args[i]);
                }
                switch (args[i++]) {
                    case "--clients" -> clients = Integer.parseInt(value);
                    case "--messages" -> messages = Integer.parseInt(value);
                    case "--uri" -> uri = URI.create(value);
                    case "--window" -> window = Integer.parseInt(value);
                    case "--quiet" -> quiet = Duration.ofSeconds(Long.parseLong(value));
                    default -> throw new IllegalArgumentException("unknown option " + args[i - 1]
                        + " (--clients N --messages M --uri ws://HOST:PORT/chat/ws --window W --quiet SECONDS)");
                }
            }
            return new Options(clients, messages, uri, window, quiet);
        }
    }

    /**
     * What a run saw; latencies in microseconds.
     *
     * @param opened members that joined the room
     * @param sent messages whose send completed
     * @param expected deliveries due: sent × opened
     * @param received deliveries that arrived
     * @param seconds from the first send to the last delivery (or giving up)
     */
    public record Result(int opened, long sent, long expected, long received, double seconds,
            long p50, long p90, long p99, long max, String problem) {

        /** @return whether every member joined, every message went out and every delivery arrived */
        public boolean complete() {
            return problem == null && received == expected;
        }

        /** @return messages sent per second */
        public double messagesPerSecond() {
            return seconds > 0 ? sent / seconds : 0;
        }

        /** @return deliveries received per second */
        public double deliveriesPerSecond() {
            return seconds > 0 ? received / seconds : 0;
        }

        /** Prints the counts, rates and percentiles, and what went wrong if anything did. */
        public void print(PrintStream out) {
            out.printf(Locale.ROOT, "chat-load: %d members opened, %d messages sent, %d of %d deliveries received in %.2f s%n",
                opened, sent, received, expected, seconds);
            out.printf(Locale.ROOT, "  %.0f messages/s, %.0f deliveries/s%n", messagesPerSecond(), deliveriesPerSecond());
            out.printf(Locale.ROOT, "  latency send->receive: p50 %s, p90 %s, p99 %s, max %s%n", ms(p50), ms(p90), ms(p99), ms(max));
            if (!complete()) {
                out.println("  FAILED: " + (problem != null ? problem : (expected - received) + " deliveries missing"));
            }
        }

        private static String ms(long micros) {
            return String.format(Locale.ROOT, "%.2f ms", micros / 1000.0);
        }
    }

    private ChatLoad() {
    }

    public static void main(String[] args) throws Exception {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException x) {
            System.err.println("chat-load: " + x.getMessage());
            System.exit(2);
            return;
        }
        System.out.println("chat-load: " + options.clients() + " members, " + options.messages() + " messages to " + options.uri());
        Result result = run(options);
        result.print(System.out);
        System.exit(result.complete() ? 0 : 1);
    }

    /** Runs the load on its own HttpClient and WebSocketClient, and closes every member at the end. */
    public static Result run(Options options) throws Exception {
        HttpClient http = new HttpClient();
        http.start();
        try {
            return new Run(options, new WebSocketClient(http)).execute();
        } finally {
            http.stop();
        }
    }

    /** One run's members and counters. */
    private static final class Run {
        private final Options options;
        private final WebSocketClient client;
        private final List<Member> members = new ArrayList<>();
        private final AtomicIntegerArray deliveries;
        private final Semaphore window;
        private final AtomicLong received = new AtomicLong();
        private final AtomicLong sent = new AtomicLong();
        private final LatencyHistogram latencies = new LatencyHistogram();
        private final ConcurrentHashMap<String, Integer> closes = new ConcurrentHashMap<>();
        private final CountDownLatch joined;
        private volatile int present;

        Run(Options options, WebSocketClient client) {
            this.options = options;
            this.client = client;
            this.deliveries = new AtomicIntegerArray(options.messages());
            this.window = new Semaphore(options.window());
            this.joined = new CountDownLatch(options.clients());
        }

        Result execute() throws Exception {
            long quietNanos = options.quiet().toNanos();
            int opened = open();
            present = opened;
            if (opened < options.clients() || !joined.await(quietNanos, TimeUnit.NANOSECONDS)) {
                String problem = opened < options.clients()
                    ? (options.clients() - opened) + " of " + options.clients() + " members could not connect"
                    : joined.getCount() + " members did not hear their own join";
                closeAll();
                return new Result(opened, 0, 0, 0, 0, 0, 0, 0, 0, problem);
            }
            long start = System.nanoTime();
            int attempted = options.messages();
            String problem = send(quietNanos);
            if (problem != null) {
                attempted = (int) sent.get();
            }
            long expected = (long) attempted * opened;
            long lastCount = -1;
            long lastProgress = System.nanoTime();
            while (received.get() < expected && System.nanoTime() - lastProgress < quietNanos) {
                Thread.sleep(20);
                long now = received.get();
                if (now != lastCount) {
                    lastCount = now;
                    lastProgress = System.nanoTime();
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (problem == null && !closes.isEmpty()) {
                problem = "members were closed: " + closes;
            }
            closeAll();
            return new Result(opened, sent.get(), expected, received.get(), seconds, latencies.percentile(0.5),
                latencies.percentile(0.9), latencies.percentile(0.99), latencies.percentile(1.0), problem);
        }

        /** Connects the members, at most 64 handshakes at once; @return how many opened */
        private int open() throws InterruptedException {
            Semaphore handshakes = new Semaphore(64);
            List<CompletableFuture<Session>> connects = new ArrayList<>();
            for (int i = 0; i < options.clients(); i++) {
                Member member = new Member("load" + i);
                members.add(member);
                handshakes.acquire();
                CompletableFuture<Session> connect = client.connect(member, URI.create(options.uri() + "?name=" + member.name));
                connect.whenComplete((session, failure) -> handshakes.release());
                connects.add(connect);
            }
            int opened = 0;
            for (CompletableFuture<Session> connect : connects) {
                try {
                    connect.get(options.quiet().toMillis(), TimeUnit.MILLISECONDS);
                    opened++;
                } catch (Exception x) {
                    closes.merge("connect failed: " + x.getCause(), 1, Integer::sum);
                }
            }
            return opened;
        }

        /** Sends the messages from random members, within the window; @return what stopped it early, or null */
        private String send(long quietNanos) throws InterruptedException {
            for (int seq = 0; seq < options.messages(); seq++) {
                if (!window.tryAcquire(quietNanos, TimeUnit.NANOSECONDS)) {
                    return "stalled: " + options.window() + " messages still on their way after " + options.quiet().toSeconds() + " s";
                }
                Member speaker = members.get(ThreadLocalRandom.current().nextInt(members.size()));
                Session session = speaker.session;
                if (session == null || !session.isOpen()) {
                    return speaker.name + " is no longer connected";
                }
                session.sendText(PREFIX + seq + " " + System.nanoTime(), Callback.from(InvocationType.NON_BLOCKING,
                    sent::incrementAndGet, failure -> closes.merge("send failed: " + failure, 1, Integer::sum)));
            }
            return null;
        }

        private void closeAll() {
            for (Member member : members) {
                Session session = member.session;
                if (session != null && session.isOpen()) {
                    session.close(CloseStatus.NORMAL, "chat-load done");
                }
            }
        }

        /** A delivery of message {@code seq} sent at {@code sentNanos} reached one member. */
        private void delivered(int seq, long sentNanos) {
            latencies.record((System.nanoTime() - sentNanos) / 1000);
            received.incrementAndGet();
            if (seq >= 0 && seq < deliveries.length() && deliveries.incrementAndGet(seq) == present) {
                window.release();
            }
        }

        /** One member: it counts the load's messages it hears and its own join. */
        private final class Member implements WebSocketListener {
            final String name;
            volatile Session session;
            private final String ownJoin;

            Member(String name) {
                this.name = name;
                this.ownJoin = "\"type\":\"join\",\"name\":\"" + name + "\"";
            }

            @Override
            public void onOpen(Session session) {
                this.session = session;
            }

            @Override
            public void onText(String json) {
                int at = json.indexOf("\"text\":\"" + PREFIX);
                if (at >= 0) {
                    int start = at + 8 + PREFIX.length();
                    int space = json.indexOf(' ', start);
                    int end = json.indexOf('"', space);
                    delivered(Integer.parseInt(json, start, space, 10), Long.parseLong(json, space + 1, end, 10));
                } else if (json.contains(ownJoin)) {
                    joined.countDown();
                }
            }

            @Override
            public void onClose(int code, String reason) {
                if (code != CloseStatus.NORMAL) {
                    closes.merge(code + " " + reason, 1, Integer::sum);
                }
            }

            @Override
            public InvocationType invocationType() {
                return InvocationType.NON_BLOCKING;
            }
        }
    }
}
