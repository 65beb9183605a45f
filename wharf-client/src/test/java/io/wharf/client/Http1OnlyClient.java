package io.wharf.client;

/**
 * A program that GETs one URI over HTTP/1.1 and prints the status and the content: run by
 * {@link WithoutHttp2Test} in a JVM whose class path has no wharf-http2, to show that a client
 * that speaks only HTTP/1.1 loads no class of it. Exits 0 after printing, 1 when the GET failed.
 */
public final class Http1OnlyClient {

    private Http1OnlyClient() {
    }

    public static void main(String[] args) throws Exception {
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
