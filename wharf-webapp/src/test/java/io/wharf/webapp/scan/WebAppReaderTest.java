package io.wharf.webapp.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.wharf.webapp.descriptor.DescriptorException;
import io.wharf.webapp.descriptor.DescriptorParser;
import io.wharf.webapp.descriptor.MultipartConfig;
import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.ServletMapping;
import io.wharf.webapp.descriptor.WebDescriptor;
import io.wharf.webapp.scan.fixtures.ConcretePlugin;
import io.wharf.webapp.scan.fixtures.Plugin;
import io.wharf.webapp.scan.fixtures.SampleListener;
import io.wharf.webapp.scan.fixtures.SampleServlet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** WebAppReader over a WEB-INF built here: web.xml, WEB-INF/classes with the fixtures, jars with and without fragments. */
class WebAppReaderTest {

    private static final String JAKARTA = "xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.1\"";

    @TempDir
    Path webInf;

    private final WebAppReader reader = new WebAppReader(new DescriptorParser(), new AnnotationScanner(Optional.empty(), 2));

    private void webXml(String attributes, String body) throws IOException {
        Files.writeString(webInf.resolve("web.xml"), "<web-app " + attributes + ">\n" + body + "</web-app>\n");
    }

    private void classes() throws IOException {
        Path target = webInf.resolve("classes/io/wharf/webapp/scan/fixtures");
        Files.createDirectories(target);
        try (Stream<Path> files = Files.list(Fixtures.fixturesDirectory())) {
            for (Path file : files.toList()) {
                Files.copy(file, target.resolve(file.getFileName().toString()));
            }
        }
    }

    private void fragmentJar(String jarName, String fragmentBody, Map<String, byte[]> classes) throws IOException {
        Map<String, byte[]> entries = new java.util.LinkedHashMap<>(classes);
        if (fragmentBody != null) {
            entries.put("META-INF/web-fragment.xml", ("<web-fragment " + JAKARTA + ">\n" + fragmentBody + "</web-fragment>\n")
                .getBytes(StandardCharsets.UTF_8));
        }
        Fixtures.jarOf(webInf.resolve("lib/" + jarName), entries);
    }

    private static Map<String, byte[]> listenerClass(String internalName) {
        return Map.of(internalName + ".class", Fixtures.emptyClass(internalName, "java/lang/Object", List.of()));
    }

    @Test
    void mergesWebXmlClassesAndFragmentsInOrder() throws Exception {
        webXml(JAKARTA, """
              <servlet><servlet-name>sample</servlet-name>
                <init-param><param-name>a</param-name><param-value>from-web.xml</param-value></init-param></servlet>
              <listener><listener-class>com.example.WebListener</listener-class></listener>
            """);
        classes();
        fragmentJar("a.jar", """
              <name>A</name>
              <ordering><after><name>B</name></after></ordering>
              <listener><listener-class>com.example.AListener</listener-class></listener>
            """, Map.of());
        fragmentJar("b.jar", "<name>B</name>\n<listener><listener-class>com.example.BListener</listener-class></listener>\n", Map.of());
        fragmentJar("c.jar", null, Map.of("other/Plugged.class",
            Fixtures.emptyClass("other/Plugged", "java/lang/Object", List.of(Plugin.class.getName().replace('.', '/')))));

        WebAppMetadata metadata = reader.read(webInf);
        assertFalse(metadata.isJavaxApplication());
        WebDescriptor effective = metadata.descriptor();
        ServletDefinition sample = effective.servlet("sample").orElseThrow();
        assertEquals(Optional.of(SampleServlet.class.getName()), sample.className());
        assertEquals(Map.of("a", "from-web.xml", "b", "2"), sample.initParams());
        assertEquals(List.of("/sample", "/s/*"), effective.servletMappings().stream()
            .filter(mapping -> mapping.servletName().equals("sample")).findFirst().map(ServletMapping::urlPatterns).orElseThrow());
        assertEquals(List.of("com.example.WebListener", SampleListener.class.getName(), "com.example.BListener", "com.example.AListener"),
            effective.listeners());
        assertEquals(List.of("B", "A", "-"), metadata.orderedFragments().stream().map(f -> f.fragmentName().orElse("-")).toList());
        assertEquals(4, metadata.scans().size(), "WEB-INF/classes and three jars");
        assertEquals(Set.of("sample"), metadata.servletSecurity().keySet());
        assertEquals(Set.of(ConcretePlugin.class.getName(), "io.wharf.webapp.scan.fixtures.BasePlugin", "other.Plugged"),
            metadata.handlesTypes(getClass().getClassLoader()).classesFor(Set.of(Plugin.class.getName())));
    }

    @Test
    void classAnnotationsReachAServletWebXmlDeclares() throws Exception {
        webXml(JAKARTA, """
              <servlet><servlet-name>declared</servlet-name><servlet-class>%s</servlet-class></servlet>
            """.formatted(SampleServlet.class.getName()));
        classes();
        WebAppMetadata metadata = reader.read(webInf);
        assertEquals(Optional.of(new MultipartConfig("/tmp/up", 1024, -1, 16)),
            metadata.descriptor().servlet("declared").orElseThrow().multipartConfig());
        assertEquals(Set.of("sample", "declared"), metadata.servletSecurity().keySet());
    }

    @Test
    void metadataCompleteWebXmlScansNothingAndIgnoresFragments() throws Exception {
        webXml(JAKARTA + " metadata-complete=\"true\"", "<listener><listener-class>com.example.Only</listener-class></listener>\n");
        classes();
        fragmentJar("a.jar", "<listener><listener-class>com.example.AListener</listener-class></listener>\n", Map.of());
        WebAppMetadata metadata = reader.read(webInf);
        assertEquals(List.of("com.example.Only"), metadata.descriptor().listeners());
        assertEquals(List.of(), metadata.scans());
        assertTrue(metadata.descriptor().servlets().isEmpty());
    }

    @Test
    void aMetadataCompleteFragmentsJarIsNotScanned() throws Exception {
        webXml(JAKARTA, "");
        Fixtures.jar(webInf.resolve("lib/annotated.jar"), Map.of("META-INF/web-fragment.xml",
            ("<web-fragment " + JAKARTA + " metadata-complete=\"true\"><name>quiet</name></web-fragment>").getBytes(StandardCharsets.UTF_8)));
        Fixtures.jar(webInf.resolve("lib/scanned.jar"), Map.of("x/Extra.class", Fixtures.emptyClass("x/Extra", "java/lang/Object", List.of())));
        WebAppMetadata metadata = reader.read(webInf);
        assertEquals(List.of(webInf.resolve("classes").toString(), webInf.resolve("lib/scanned.jar").toString()),
            metadata.scans().stream().map(ScanResult::source).toList());
        assertTrue(metadata.descriptor().servlet("sample").isPresent(), "from scanned.jar");
    }

    @Test
    void absoluteOrderingLeavesOutAJarAndItsAnnotations() throws Exception {
        webXml(JAKARTA, "<absolute-ordering><name>B</name></absolute-ordering>\n");
        Fixtures.jar(webInf.resolve("lib/a.jar"), Map.of("META-INF/web-fragment.xml",
            ("<web-fragment " + JAKARTA + "><name>A</name></web-fragment>").getBytes(StandardCharsets.UTF_8)));
        fragmentJar("b.jar", "<name>B</name>\n", listenerClass("b/Thing"));
        WebAppMetadata metadata = reader.read(webInf);
        assertEquals(List.of("B"), metadata.orderedFragments().stream().map(f -> f.fragmentName().orElseThrow()).toList());
        assertTrue(metadata.descriptor().servlets().isEmpty(), "a.jar's annotated servlets are not part of the application");
    }

    @Test
    void aJavaEeWebXmlMarksAJavaxApplication() throws Exception {
        Files.writeString(webInf.resolve("web.xml"), "<web-app xmlns=\"http://xmlns.jcp.org/xml/ns/javaee\" version=\"4.0\"/>");
        WebAppMetadata metadata = reader.read(webInf);
        assertTrue(metadata.isJavaxApplication());
        assertEquals(List.of(webInf.resolve("web.xml") + " is a Java EE descriptor (namespace 'http://xmlns.jcp.org/xml/ns/javaee',"
            + " version '4.0'): a javax.servlet application"), metadata.javaxEvidence());
    }

    @Test
    void aJavaxServletAnnotatedClassInAJarMarksAJavaxApplication() throws Exception {
        fragmentJar("legacy.jar", null, Map.of("legacy/LegacyServlet.class", Fixtures.javaxWebServletClass()));
        WebAppMetadata metadata = reader.read(webInf);
        assertTrue(metadata.isJavaxApplication());
        assertEquals(List.of(webInf.resolve("lib/legacy.jar") + ": 1 class(es) carry javax.servlet annotations, e.g. legacy.LegacyServlet"),
            metadata.javaxEvidence());
    }

    @Test
    void aJarDeclaringAJavaxInitializerMarksAJavaxApplication() throws Exception {
        fragmentJar("legacy.jar", null, Map.of("META-INF/services/javax.servlet.ServletContainerInitializer",
            "legacy.Initializer\n".getBytes(StandardCharsets.UTF_8)));
        WebAppMetadata metadata = reader.read(webInf);
        assertTrue(metadata.isJavaxApplication());
        assertEquals(List.of(webInf.resolve("lib/legacy.jar") + " declares a javax.servlet.ServletContainerInitializer"
            + " (META-INF/services/javax.servlet.ServletContainerInitializer) and no Jakarta one"), metadata.javaxEvidence());
    }

    @Test
    void aClassOfTheApplicationReferringToJavaxMarksAJavaxApplication() throws Exception {
        Files.createDirectories(webInf.resolve("classes/legacy"));
        Files.write(webInf.resolve("classes/legacy/LegacyServlet.class"), Fixtures.javaxServletClass());
        WebAppMetadata metadata = reader.read(webInf);
        assertTrue(metadata.isJavaxApplication());
        assertEquals(List.of(webInf.resolve("classes") + ": 1 class(es) refer to javax.servlet, e.g. legacy.LegacyServlet"),
            metadata.javaxEvidence());
    }

    /**
     * Libraries such as commons-logging, H2, Micrometer and Thymeleaf carry optional classes for
     * javax.servlet beside their Jakarta ones: a Jakarta application with them is still one.
     */
    @Test
    void aLibraryWithOptionalJavaxClassesIsNoSignOfAJavaxApplication() throws Exception {
        webXml(JAKARTA, "");
        fragmentJar("library.jar", null, Map.of("legacy/LegacyServlet.class", Fixtures.javaxServletClass(),
            "META-INF/services/javax.servlet.ServletContainerInitializer", "legacy.Initializer\n".getBytes(StandardCharsets.UTF_8),
            "META-INF/services/jakarta.servlet.ServletContainerInitializer", "modern.Initializer\n".getBytes(StandardCharsets.UTF_8)));
        WebAppMetadata metadata = reader.read(webInf);
        assertFalse(metadata.isJavaxApplication(), metadata.javaxEvidence()::toString);
    }

    @Test
    void conflictingFragmentsFailTheRead() throws Exception {
        fragmentJar("a.jar", "<context-param><param-name>p</param-name><param-value>1</param-value></context-param>\n", Map.of());
        fragmentJar("b.jar", "<context-param><param-name>p</param-name><param-value>2</param-value></context-param>\n", Map.of());
        DescriptorException failure = assertThrows(DescriptorException.class, () -> reader.read(webInf));
        assertTrue(failure.getMessage().contains("a.jar!/META-INF/web-fragment.xml") && failure.getMessage().contains("b.jar!/META-INF/web-fragment.xml"),
            failure.getMessage());
    }
}
