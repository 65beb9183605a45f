package io.wharf.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.wharf.testing.PeerProcess;

/**
 * Test fixture: nginx on three loopback ports, its configuration written into the test's
 * temporary directory, with gzip on:
 * <ul>
 * <li>{@link #httpPort}: plain http;</li>
 * <li>{@link #tlsPort}: TLS with the self-signed {@link TestCertificate#localhost()};</li>
 * <li>{@link #wrongNamePort}: TLS with {@link TestCertificate#wrongName()}, valid but for another host;</li>
 * <li>{@link #h2Port}: TLS offering h2 (and http/1.1) by ALPN, with the locations of the TLS server;</li>
 * <li>{@link #h2cPort}: plain HTTP/2 with prior knowledge (h2c), with those of the plain server.</li>
 * </ul>
 * HTTP/2 is switched on with {@code listen ... http2}, which nginx 1.22 (Debian's) knows; later
 * versions accept it too (with a warning that {@code http2 on;} is the new way).
 * {@code /hello} answers what nginx saw ({@code scheme}, SNI, ALPN, the {@code Via} a proxy
 * added); {@code /echo} (TLS) answers the method and the request body, through a
 * {@code proxy_pass} to the plain server; {@code /big.txt} is a 200 KB text file, gzipped when
 * asked. Stopped by {@link #close()}.
 */
final class NginxPeer implements AutoCloseable {

    static final int BIG_SIZE = 200_000;

    final int httpPort;
    final int tlsPort;
    final int wrongNamePort;
    final int h2Port;
    final int h2cPort;
    private final PeerProcess process;

    private NginxPeer(int[] ports, PeerProcess process) {
        this.httpPort = ports[0];
        this.tlsPort = ports[1];
        this.wrongNamePort = ports[2];
        this.h2Port = ports[3];
        this.h2cPort = ports[4];
        this.process = process;
    }

    static NginxPeer start(Path directory) throws Exception {
        Path nginx = PeerProcess.require("nginx");
        TestCertificate.localhost().writePem(directory, "localhost");
        TestCertificate.wrongName().writePem(directory, "wrong");
        Path site = Files.createDirectories(directory.resolve("www"));
        StringBuilder big = new StringBuilder(BIG_SIZE);
        for (int line = 0; big.length() < BIG_SIZE; line++) {
            big.append("line ").append(line).append(" of a text that compresses well\n");
        }
        big.setLength(BIG_SIZE);
        Files.writeString(site.resolve("big.txt"), big);
        int http = PeerProcess.freePort();
        int tls = PeerProcess.freePort();
        int wrong = PeerProcess.freePort();
        int h2 = PeerProcess.freePort();
        int h2c = PeerProcess.freePort();
        Path config = directory.resolve("nginx.conf");
        Files.writeString(config, configuration(directory, http, tls, wrong, PeerProcess.ipv6Loopback())
                .replace("# HTTP/2 servers", http2Servers(directory, http, h2, h2c, PeerProcess.ipv6Loopback())));
        PeerProcess process = PeerProcess.start("nginx", directory,
                List.of(nginx.toString(), "-p", directory.toString(), "-c", config.toString(), "-e", "stderr"),
                http, tls, wrong, h2, h2c);
        return new NginxPeer(new int[] {http, tls, wrong, h2, h2c}, process);
    }

    /** @return the servers of {@link #h2Port} and {@link #h2cPort} */
    private static String http2Servers(Path directory, int http, int h2, int h2c, boolean ipv6) {
        return tlsServer(directory, http, listen(h2, " ssl http2", ipv6), "hello $scheme $server_protocol alpn=$ssl_alpn_protocol")
                + """
              server {
                listen 127.0.0.1:%2$d http2;
                location = /hello {
                  return 200 "hello $scheme $server_protocol\\n";
                }
                location / {
                  root %1$s/www;
                }
              }
            """.formatted(directory, h2c);
    }

    /** @return a TLS server with the localhost certificate: /hello answers {@code hello}, /echo goes to the plain server's /reflect */
    private static String tlsServer(Path directory, int http, String listen, String hello) {
        return """
              server {
                %3$s
                ssl_certificate %1$s/localhost.crt;
                ssl_certificate_key %1$s/localhost.key;
                location = /hello {
                  return 200 "%4$s\\n";
                }
                location = /echo {
                  proxy_pass http://127.0.0.1:%2$d/reflect;
                  proxy_set_header X-Echo $request_body;
                }
                location / {
                  root %1$s/www;
                }
              }
            """.formatted(directory, http, listen, hello);
    }

    private static String configuration(Path directory, int http, int tls, int wrong, boolean ipv6) {
        return """
            # Workers run as this user (as root, nginx would pick nobody, who cannot read the temporary directory).
            user %7$s;
            worker_processes 1;
            daemon off;
            pid %1$s/nginx.pid;
            error_log stderr warn;
            events {
              worker_connections 256;
            }
            http {
              access_log off;
              client_body_temp_path %1$s/client_body;
              proxy_temp_path %1$s/proxy;
              fastcgi_temp_path %1$s/fastcgi;
              uwsgi_temp_path %1$s/uwsgi;
              scgi_temp_path %1$s/scgi;
              default_type text/plain;
              gzip on;
              gzip_types text/plain;
              gzip_min_length 1;
              gzip_proxied any;
              server {
                %5$s
                location = /hello {
                  return 200 "hello $scheme via=$http_via\\n";
                }
                location = /reflect {
                  return 200 "$request_method $http_x_echo";
                }
                location / {
                  root %1$s/www;
                }
              }
            %6$s\
              server {
                listen 127.0.0.1:%4$d ssl;
                ssl_certificate %1$s/wrong.crt;
                ssl_certificate_key %1$s/wrong.key;
                location / {
                  return 200 "wrong\\n";
                }
              }
            # HTTP/2 servers
            }
            """.formatted(directory, http, tls, wrong, listen(http, "", ipv6),
                    tlsServer(directory, http, listen(tls, " ssl", ipv6), "hello $scheme sni=$ssl_server_name alpn=$ssl_alpn_protocol"),
                    System.getProperty("user.name"));
    }

    /** @return the listen lines of {@code port} on 127.0.0.1, and on ::1 too when it exists ("localhost" may be either) */
    private static String listen(int port, String options, boolean ipv6) {
        return "listen 127.0.0.1:" + port + options + ";" + (ipv6 ? " listen [::1]:" + port + options + ";" : "");
    }

    /** @return {@code https://localhost:port/path} on the TLS server */
    String https(String path) {
        return "https://localhost:" + tlsPort + path;
    }

    /** @return {@code https://localhost:port/path} on the h2 server */
    String h2(String path) {
        return "https://localhost:" + h2Port + path;
    }

    /** @return {@code http://127.0.0.1:port/path} on the h2c server */
    String h2c(String path) {
        return "http://127.0.0.1:" + h2cPort + path;
    }

    /** @return {@code http://localhost:port/path} on the plain server */
    String http(String path) {
        return "http://localhost:" + httpPort + path;
    }

    @Override
    public void close() throws Exception {
        process.close();
    }
}
