package io.wharf.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.UUID;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.login.PasswordFileLoginService;
import io.wharf.login.PasswordHash;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.tls.ServerTlsContext;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.SecurityConstraint;

/**
 * CLIENT-CERT login, runnable (docs/login.md): https://localhost:8443/secure/ for users who
 * show a client certificate that a trusted authority signed and whose CN a password file knows.
 * The first start makes, in the directory given (or {@code .wharf/client-cert-example}), a small
 * authority with certificates for ann and mallory ({@link ClientCertificates}), the server's
 * certificate ({@link DemoCertificate}) and {@code users.txt}, which knows ann only; then it
 * prints the curl commands to try.
 *
 * <pre>{@code
 * ClientCertificateExample [DIRECTORY [PORT]]
 * }</pre>
 */
public final class ClientCertificateExample {

    private ClientCertificateExample() {
    }

    /** Prints who the request's user is and the subject of their certificate. */
    static final class WhoAmI extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            X509Certificate[] chain = (X509Certificate[]) request.getAttribute("jakarta.servlet.request.X509Certificate");
            response.setContentType("text/plain;charset=utf-8");
            response.getWriter().println("user " + request.getUserPrincipal().getName() + " by " + request.getAuthType()
                + ", certificate of " + chain[0].getSubjectX500Principal().getName());
        }
    }

    /**
     * Makes, when missing, the authority with certificates for ann and mallory
     * ({@link ClientCertificates}) and {@code users.txt}, which knows ann only, in {@code directory}.
     */
    public static void prepare(Path directory) throws Exception {
        if (!Files.exists(directory.resolve("trust.p12"))) {
            ClientCertificates.make(directory, List.of("ann", "mallory"));
        }
        Path users = directory.resolve("users.txt");
        if (!Files.exists(users)) {
            // A certificate is ann's credential: her password is never asked, so it is a random one.
            Files.writeString(users, "ann:" + PasswordHash.hash(UUID.randomUUID().toString()) + ":staff\n");
        }
    }

    /** @return the server's TLS settings: its certificate (made when missing), the authority to trust, and whether to ask for a client's */
    public static ServerTlsContext tls(Path directory, ServerTlsContext.ClientAuth clientAuth) throws IOException, InterruptedException {
        return DemoCertificate.in(directory.resolve("server"))
            .trustStore(directory.resolve("trust.p12"), ClientCertificates.PASSWORD)
            .clientAuth(clientAuth);
    }

    /** @return the servlet context: /secure/* for the role staff, CLIENT-CERT login, the users of {@code directory}/users.txt */
    public static ServletContextHandler context(Path directory) throws IOException {
        ServletContextHandler context = new ServletContextHandler("/");
        context.setLoginConfig(LoginConfig.clientCert());
        context.setLoginService(new PasswordFileLoginService("Staff", directory.resolve("users.txt")));
        context.addServlet(new WhoAmI(), "/secure/*");
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/secure/*"), "staff"));
        return context;
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args.length > 0 ? args[0] : ".wharf/client-cert-example");
        int port = args.length > 1 ? Integer.parseInt(args[1]) : 8443;
        prepare(directory);
        Server server = new Server();
        ServerConnector https = new ServerConnector(server, new TlsConnectionFactory(tls(directory, ServerTlsContext.ClientAuth.WANT)),
            new HttpConnectionFactory());
        https.setPort(port);
        server.addConnector(https);
        server.setHandler(context(directory));
        server.setStopAtShutdown(true);
        server.start();

        String curl = "curl --cacert " + directory.resolve("server/demo.pem");
        String url = " https://localhost:" + https.getLocalPort() + "/secure/";
        System.out.println("CLIENT-CERT example on" + url + "; try:");
        System.out.println("  " + curl + " --cert " + directory.resolve("ann.pem") + " --key " + directory.resolve("ann.key") + url);
        System.out.println("  " + curl + " --cert " + directory.resolve("mallory.pem") + " --key " + directory.resolve("mallory.key")
            + url + "   (403: not in users.txt)");
        System.out.println("  " + curl + url + "   (403: no certificate)");
        server.join();
    }
}
