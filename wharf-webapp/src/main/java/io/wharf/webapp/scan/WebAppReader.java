package io.wharf.webapp.scan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import io.wharf.webapp.descriptor.DescriptorKind;
import io.wharf.webapp.descriptor.DescriptorMerger;
import io.wharf.webapp.descriptor.DescriptorParser;
import io.wharf.webapp.descriptor.FragmentOrdering;
import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.WebDescriptor;

/**
 * Reads the metadata of an exploded web application's WEB-INF, the whole of Servlet 6.1 chapter
 * 8 in order: web.xml; each WEB-INF/lib jar's META-INF/web-fragment.xml (a jar without one is a
 * nameless fragment); the fragments' order; unless web.xml is metadata-complete, the annotations
 * of WEB-INF/classes and of each ordered jar whose fragment is not itself metadata-complete (jars
 * in parallel); each document overlaid on its own annotations; then web.xml merged over the
 * fragments. A javax application is reported, not merged: a Java EE descriptor, a class of
 * WEB-INF/classes referring to javax.servlet, or a jar that would plug javax components into a
 * container — classes with {@code javax.servlet.annotation} types, or a javax
 * {@code ServletContainerInitializer} service without a Jakarta one. A jar's mere references to
 * javax.servlet are no sign: libraries (commons-logging, H2, Micrometer, Thymeleaf...) carry
 * optional javax.servlet classes beside their Jakarta ones. The deployer calls {@link #read} on its thread.
 */
public final class WebAppReader {

    private static final String FRAGMENT = "META-INF/web-fragment.xml";
    private static final String JAVAX_INITIALIZERS = "META-INF/services/javax.servlet.ServletContainerInitializer";
    private static final String JAKARTA_INITIALIZERS = "META-INF/services/jakarta.servlet.ServletContainerInitializer";

    private final DescriptorParser parser;
    private final AnnotationScanner scanner;

    /** @param parser reads the descriptors; @param scanner reads the classes */
    public WebAppReader(DescriptorParser parser, AnnotationScanner scanner) {
        this.parser = parser;
        this.scanner = scanner;
    }

    /**
     * @param webInf the WEB-INF directory
     * @return its metadata
     * @throws io.wharf.webapp.descriptor.DescriptorException when a descriptor or annotation is invalid or they conflict
     */
    public WebAppMetadata read(Path webInf) throws IOException {
        Path webXmlFile = webInf.resolve("web.xml");
        WebDescriptor webXml = Files.isRegularFile(webXmlFile)
            ? parser.parseWebXml(webXmlFile)
            : WebDescriptor.builder(webXmlFile + " (absent)", DescriptorKind.WEB_APP).build();
        Map<Path, WebDescriptor> fragmentsByJar = new LinkedHashMap<>();
        List<Path> javaxInitializerJars = new ArrayList<>();
        for (Path jar : jars(webInf.resolve("lib"))) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                fragmentsByJar.put(jar, fragment(jar, zip));
                if (zip.getEntry(JAVAX_INITIALIZERS) != null && zip.getEntry(JAKARTA_INITIALIZERS) == null) {
                    javaxInitializerJars.add(jar);
                }
            }
        }
        List<WebDescriptor> ordered = FragmentOrdering.order(webXml, List.copyOf(fragmentsByJar.values()));
        List<String> javax = new ArrayList<>();
        javaxDescriptor(webXml, javax);
        ordered.forEach(fragment -> javaxDescriptor(fragment, javax));
        javaxInitializerJars.forEach(jar -> javax.add(jar + " declares a javax.servlet.ServletContainerInitializer (" + JAVAX_INITIALIZERS
            + ") and no Jakarta one"));
        if (!javax.isEmpty() || webXml.metadataComplete()) {
            WebDescriptor descriptor = javax.isEmpty() ? DescriptorMerger.merge(webXml, ordered) : webXml;
            return new WebAppMetadata(descriptor, ordered, List.of(), Map.of(), javax);
        }

        ScanResult classes = scanner.scanDirectory(webInf.resolve("classes"));
        List<Path> jarsToScan = new ArrayList<>();
        fragmentsByJar.forEach((jar, fragment) -> {
            if (ordered.contains(fragment) && !fragment.metadataComplete()) {
                jarsToScan.add(jar);
            }
        });
        Map<WebDescriptor, ScanResult> scanOf = new HashMap<>();
        List<ScanResult> jarScans = scanner.scanJars(jarsToScan);
        for (int i = 0; i < jarsToScan.size(); i++) {
            scanOf.put(fragmentsByJar.get(jarsToScan.get(i)), jarScans.get(i));
        }
        List<ScanResult> scans = new ArrayList<>();
        scans.add(classes);
        ordered.stream().map(scanOf::get).filter(scan -> scan != null).forEach(scans::add);
        javaxClasses(classes, classes.javaxServletClasses(), "refer to javax.servlet", javax);
        scans.subList(1, scans.size()).forEach(scan -> javaxClasses(scan, scan.javaxServletComponents(), "carry javax.servlet annotations", javax));
        if (!javax.isEmpty()) {
            return new WebAppMetadata(webXml, ordered, scans, Map.of(), javax);
        }

        WebDescriptor application = DescriptorMerger.overlay(webXml, AnnotationDescriptors.of(classes));
        List<WebDescriptor> fragments = ordered.stream()
            .map(fragment -> scanOf.containsKey(fragment) ? DescriptorMerger.overlay(fragment, AnnotationDescriptors.of(scanOf.get(fragment))) : fragment)
            .toList();
        WebDescriptor merged = DescriptorMerger.merge(application, fragments);
        return withClassAnnotations(merged, ordered, scans);
    }

    /**
     * @MultipartConfig and @ServletSecurity belong to a servlet's class, whatever declared the
     * servlet: a servlet web.xml declares with an annotated class gets them too.
     */
    private static WebAppMetadata withClassAnnotations(WebDescriptor merged, List<WebDescriptor> ordered, List<ScanResult> scans) {
        Map<String, ScannedClass> byName = new HashMap<>();
        scans.forEach(scan -> scan.classes().forEach(scanned -> byName.putIfAbsent(scanned.name(), scanned)));
        WebDescriptor.Builder builder = merged.toBuilder();
        Map<String, ServletSecurityAnnotation> security = new LinkedHashMap<>();
        builder.servlets.replaceAll(servlet -> {
            Optional<ScannedClass> scanned = servlet.className().map(byName::get);
            scanned.flatMap(ScannedClass::servletSecurity).ifPresent(annotation -> security.put(servlet.name(), annotation));
            if (servlet.multipartConfig().isPresent() || scanned.flatMap(ScannedClass::multipartConfig).isEmpty()) {
                return servlet;
            }
            return new ServletDefinition(servlet.name(), servlet.className(), servlet.jspFile(), servlet.initParams(),
                servlet.loadOnStartup(), servlet.asyncSupported(), servlet.enabled(), scanned.get().multipartConfig(), servlet.runAs(),
                servlet.securityRoleRefs());
        });
        return new WebAppMetadata(builder.build(), ordered, scans, security, List.of());
    }

    private static List<Path> jars(Path lib) throws IOException {
        if (!Files.isDirectory(lib)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(lib)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".jar") && Files.isRegularFile(file)).sorted().toList();
        }
    }

    private WebDescriptor fragment(Path jar, ZipFile zip) throws IOException {
        ZipEntry entry = zip.getEntry(FRAGMENT);
        if (entry == null) {
            return WebDescriptor.builder(jar.toString(), DescriptorKind.WEB_FRAGMENT).build();
        }
        try (InputStream in = zip.getInputStream(entry)) {
            return parser.parseFragment(jar + "!/" + FRAGMENT, in);
        }
    }

    private static void javaxDescriptor(WebDescriptor descriptor, List<String> evidence) {
        if (descriptor.namespace().isJavaxServlet()) {
            evidence.add(descriptor.source() + " is a Java EE descriptor (namespace '" + descriptor.namespace().uri()
                + "', version '" + descriptor.version() + "'): a javax.servlet application");
        }
    }

    private static void javaxClasses(ScanResult scan, List<String> classes, String what, List<String> evidence) {
        if (!classes.isEmpty()) {
            evidence.add(scan.source() + ": " + classes.size() + " class(es) " + what + ", e.g. " + classes.get(0));
        }
    }
}
