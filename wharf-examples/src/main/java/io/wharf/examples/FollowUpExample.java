package io.wharf.examples;

import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import io.wharf.client.ContentResponse;
import io.wharf.client.HttpClient;
import io.wharf.client.RequestContent;
import io.wharf.client.auth.BasicAuthentication;
import io.wharf.http.HttpCookie;
import io.wharf.http.HttpHeader;
import io.wharf.http.form.FormFields;
import io.wharf.http.form.FormLimits;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.handler.gzip.GzipHandler;

/**
 * What the HTTP client does on an application's behalf: follows a redirect, keeps a session
 * cookie across a login, answers a Basic challenge (then sends the credentials first), and
 * inflates a gzip response — against a small Wharf server on a free loopback port.
 */
public final class FollowUpExample {

    private FollowUpExample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    /** Runs the example, printing what it gets to {@code out}. */
    public static void run(PrintStream out) throws Exception {
        LoopbackServer server = new LoopbackServer(new GzipHandler(Handler.of(FollowUpExample::handle)));
        String base = server.base();

        HttpClient client = new HttpClient();
        client.getAuthenticationStore().addAuthentication(
                new BasicAuthentication(URI.create(base + "/private"), "example", "ann", "s3cret"));
        client.start();
        try {
            // 1. Redirects are followed; the listeners see the final response only.
            ContentResponse moved = client.GET(base + "/old");
            out.println(moved.getStatus() + " " + moved.getRequest().getURI().getPath());

            // 2. Cookies: the login's Set-Cookie is kept and sent back after its 303.
            FormFields login = new FormFields();
            login.add("user", "ann");
            ContentResponse account = client.POST(base + "/login").content(RequestContent.form(login)).send();
            out.println(account.getContentAsString() + " " + client.getCookieStore().getCookies());

            // 3. Authentication: the 401 is answered once; the answer then goes first.
            ContentResponse secret = client.GET(base + "/private/data");
            ContentResponse again = client.GET(base + "/private/more");
            out.println(secret.getStatus() + " " + secret.getContentAsString() + ", then " + again.getContentAsString());

            // 4. gzip: asked for, and inflated for the listeners.
            ContentResponse report = client.GET(base + "/report");
            out.println("report: " + report.getContent().length + " bytes, Content-Encoding "
                    + report.getHeaders().get(HttpHeader.CONTENT_ENCODING));
        } finally {
            client.stop();
            server.close();
        }
    }

    private static boolean handle(Request request, Response response, io.wharf.util.Callback callback) throws Exception {
        String path = request.getPathInContext();
        String cookie = Request.getCookies(request).stream().filter(c -> c.getName().equals("session"))
                .map(HttpCookie::getValue).findFirst().orElse(null);
        switch (path) {
            case "/old" -> Response.sendRedirect(request, response, callback, 301, "/new");
            case "/login" -> {
                String user = Request.readFormFields(request, StandardCharsets.UTF_8, FormLimits.DEFAULT).getValue("user");
                Response.addCookie(response, HttpCookie.build("session", user).path("/").httpOnly(true)
                        .sameSite(HttpCookie.SameSite.LAX).build());
                Response.sendRedirect(request, response, callback, 303, "/account");
            }
            case "/account" -> Response.write(response, true, cookie == null ? "who are you?" : "welcome back, " + cookie, callback);
            case "/report" -> {
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
                Response.write(response, true, "all is well\n".repeat(2000), callback);
            }
            default -> {
                if (path.startsWith("/private")) {
                    String expected = "Basic " + Base64.getEncoder().encodeToString("ann:s3cret".getBytes(StandardCharsets.UTF_8));
                    if (!expected.equals(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
                        response.setStatus(401);
                        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Basic realm=\"example\"");
                        Response.write(response, true, "", callback);
                        return true;
                    }
                    Response.write(response, true, "secret " + path.substring("/private/".length()), callback);
                } else {
                    Response.write(response, true, "page " + path, callback);
                }
            }
        }
        return true;
    }
}
