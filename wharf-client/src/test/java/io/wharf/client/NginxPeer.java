package io.wharf.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Test fixture: nginx on three loopback ports, its configuration written into the test's
 * temporary directory, with gzip on:
 * <ul>
 * <li>{@link #httpPort}: plain http;</li>
 * <li>{@link #tlsPort}: TLS with the self-signed {@link TestCertificate#localhost()};</li>
 * <li>{@link #wrongNamePort}: TLS with {@link TestCertificate#wrongName()}, valid but for another host.</li>
 * </ul>
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
    private final PeerProcess process;

    private NginxPeer(int httpPort, int tlsPort, int wrongNamePort, PeerProcess process) {
        this.httpPort = httpPort;
        this.tlsPort = tlsPort;
        this.wrongNamePort = wrongNamePort;
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
        Path config = directory.resolve("nginx.conf");
        Files.writeString(config, configuration(directory, http, tls, wrong, PeerProcess.ipv6Loopback()));
        PeerProcess process = PeerProcess.start("nginx", directory,
                List.of(nginx.toString(), "-p", directory.toString(), "-c", config.toString(), "-e", "stderr"),
                http, tls, wrong);
        return new NginxPeer(http, tls, wrong, process);
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
              server {
                %6$s
                ssl_certificate %1$s/localhost.crt;
                ssl_certificate_key %1$s/localhost.key;
                location = /hello {
                  return 200 "hello $scheme sni=$ssl_server_name alpn=$ssl_alpn_protocol\\n";
                }
                location = /echo {
                  proxy_pass http://127.0.0.1:%2$d/reflect;
                  proxy_set_header X-Echo $request_body;
                }
                location / {
                  root %1$s/www;
                }
              }
              server {
                listen 127.0.0.1:%4$d ssl;
                ssl_certificate %1$s/wrong.crt;
                ssl_certificate_key %1$s/wrong.key;
                location / {
                  return 200 "wrong\\n";
                }
              }
            }
            """.formatted(directory, http, tls, wrong, listen(http, "", ipv6), listen(tls, " ssl", ipv6),
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

    /** @return {@code http://localhost:port/path} on the plain server */
    String http(String path) {
        return "http://localhost:" + httpPort + path;
    }

    @Override
    public void close() throws Exception {
        process.close();
    }
}
