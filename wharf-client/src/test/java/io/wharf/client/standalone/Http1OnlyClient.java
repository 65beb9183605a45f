package io.wharf.client.standalone;

import io.wharf.client.ContentResponse;
import io.wharf.client.HttpClient;
import io.wharf.client.HttpTransport;

/**
 * A program that GETs one URI over HTTP/1.1 and prints the status and the content: run by
 * {@code WithoutHttp2Test} in a JVM without wharf-http2 (on its class path, or with
 * {@code io.wharf.client} on its module path), to show that a client that speaks only HTTP/1.1
 * needs no class of it. Exits 0 after printing, 1 when the GET failed. In a package of its own
 * so that, on the class path, it is not in a package of the module {@code io.wharf.client}.
 */
public final class Http1OnlyClient {

    private Http1OnlyClient() {
    }

    /**
     * @param args the URI to GET; or {@code refused} and an {@code HttpTransport} name, to print
     *     why a client of that transport cannot be made
     */
    public static void main(String[] args) throws Exception {
        if (args[0].equals("refused")) {
            try {
                new HttpClient(HttpTransport.valueOf(args[1]));
                System.out.println("made a client of " + args[1]);
            } catch (IllegalStateException x) {
                System.out.println("refused: " + x.getMessage());
            }
            return;
        }
        HttpClient client = new HttpClient();
        client.start();
        try {
            ContentResponse response = client.GET(args[0]);
            System.out.println(response.getStatus() + " " + response.getContentAsString());
        } catch (Exception x) {
            x.printStackTrace();
            System.exit(1);
        } finally {
            client.stop();
        }
    }
}
