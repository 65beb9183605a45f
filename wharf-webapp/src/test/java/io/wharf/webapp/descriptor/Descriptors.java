package io.wharf.webapp.descriptor;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Test helper: parses descriptor text, wrapping the body in a Jakarta 6.1 root when asked. */
final class Descriptors {

    static final String JAKARTA = "https://jakarta.ee/xml/ns/jakartaee";

    private Descriptors() {
    }

    /** @return the web.xml whose root's children are {@code body} (first line of body is line 2) */
    static WebDescriptor webXml(String body) {
        return parseWebXml("<web-app xmlns=\"" + JAKARTA + "\" version=\"6.1\">\n" + body + "</web-app>\n");
    }

    /** @return the web-fragment.xml of this {@code source} whose root's children are {@code body} */
    static WebDescriptor fragment(String source, String body) {
        try {
            return new DescriptorParser().parseFragment(source, new ByteArrayInputStream(
                ("<web-fragment xmlns=\"" + JAKARTA + "\" version=\"6.1\">\n" + body + "</web-fragment>\n").getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the web.xml of this whole text, named WEB-INF/web.xml */
    static WebDescriptor parseWebXml(String document) {
        try {
            return new DescriptorParser().parseWebXml("WEB-INF/web.xml", new ByteArrayInputStream(document.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
