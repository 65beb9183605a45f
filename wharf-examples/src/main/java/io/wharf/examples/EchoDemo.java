package io.wharf.examples;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code ./wharf demo [PORT]}: Wharf's I/O layer serving TCP echo on 127.0.0.1 (default port
 * 8080) until interrupted. The HTTP demo replaces it when the HTTP server lands.
 */
public final class EchoDemo {

    private EchoDemo() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        EchoServer server = new EchoServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0, Duration.ofMinutes(5));
        server.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop();
            } catch (Exception x) {
                x.printStackTrace();
            }
            stopped.countDown();
        }, "wharf-demo-shutdown"));
        InetSocketAddress bound = server.boundAddress();
        System.out.println("Wharf echo demo listening on " + bound.getHostString() + ":" + bound.getPort());
        System.out.println("Try it:  printf 'hello wharf\\n' | nc -q1 " + bound.getHostString() + " " + bound.getPort());
        System.out.println("Stop with Ctrl-C.");
        stopped.await();
    }
}
