package io.wharf.webapp.descriptor;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

import io.wharf.webapp.descriptor.internal.DescriptorReader;
import io.wharf.webapp.descriptor.internal.XmlElement;
import io.wharf.webapp.descriptor.internal.XmlTreeReader;

/**
 * Reads a web.xml or web-fragment.xml into a {@link WebDescriptor}. The deployer calls it on
 * its own thread; an instance holds only its size limit, so threads may share it.
 *
 * <p>It reads documents in the Jakarta EE namespace at versions 5.0, 6.0 and 6.1, and also
 * documents in Java EE's namespaces (or none, with a DOCTYPE), which it marks through {@link
 * WebDescriptor#namespace()} rather than refusing, so the deployer can say the application is a
 * javax.servlet one. It processes no DTD and resolves no entity, and refuses a document larger
 * than its limit before parsing it. Every problem is a {@link DescriptorException} whose message
 * names the document and the line.
 *
 * <pre>{@code
 * WebDescriptor webXml = new DescriptorParser().parseWebXml(Path.of("WEB-INF/web.xml"));
 * }</pre>
 */
public final class DescriptorParser {

    /** The default limit on a document's size: 4 MiB. */
    public static final int DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

    /** The versions of the Jakarta EE namespace this parser reads. */
    public static final Set<String> JAKARTA_VERSIONS = Set.of("5.0", "6.0", "6.1");

    private final int maxBytes;

    /** A parser with the default limit of {@value #DEFAULT_MAX_BYTES} bytes. */
    public DescriptorParser() {
        this(DEFAULT_MAX_BYTES);
    }

    /** @param maxBytes the largest document it reads, in bytes */
    public DescriptorParser(int maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive: " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** @return the web.xml in this file, named by its path in messages */
    public WebDescriptor parseWebXml(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(file.toString(), DescriptorKind.WEB_APP, in);
        }
    }

    /** @return the web.xml read from {@code in} (not closed), named {@code source} in messages */
    public WebDescriptor parseWebXml(String source, InputStream in) throws IOException {
        return parse(source, DescriptorKind.WEB_APP, in);
    }

    /** @return the web-fragment.xml read from {@code in} (not closed), named {@code source} in messages */
    public WebDescriptor parseFragment(String source, InputStream in) throws IOException {
        return parse(source, DescriptorKind.WEB_FRAGMENT, in);
    }

    private WebDescriptor parse(String source, DescriptorKind kind, InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(maxBytes + 1);
        if (bytes.length > maxBytes) {
            throw DescriptorException.at(source, 0, "larger than the limit of " + maxBytes + " bytes");
        }
        XmlTreeReader.Root root = XmlTreeReader.read(source, bytes);
        XmlElement element = root.element();
        String expected = kind == DescriptorKind.WEB_APP ? "web-app" : "web-fragment";
        if (!element.name().equals(expected)) {
            throw element.fail("the root element is <" + element.name() + ">, not <" + expected + ">");
        }
        SchemaNamespace namespace = SchemaNamespace.ofUri(root.namespaceUri());
        if (namespace == null) {
            throw element.fail("<" + expected + "> is in namespace '" + root.namespaceUri() + "', not " + SchemaNamespace.JAKARTA_EE.uri());
        }
        String version = element.attribute("version").orElse("");
        if (namespace == SchemaNamespace.JAKARTA_EE && !JAKARTA_VERSIONS.contains(version)) {
            throw element.fail(version.isEmpty()
                ? "<" + expected + "> has no version attribute (5.0, 6.0 or 6.1)"
                : "version '" + version + "' is not one this server reads (5.0, 6.0, 6.1)");
        }
        WebDescriptor.Builder builder = new WebDescriptor.Builder(source, kind, namespace, version);
        builder.metadataComplete = element.attribute("metadata-complete").map(value -> switch (value) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw element.fail("metadata-complete '" + value + "' is not true or false");
        }).orElse(false);
        new DescriptorReader(builder).read(element);
        return builder.build();
    }
}
