package io.wharf.webapp.scan.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.wharf.webapp.descriptor.DescriptorException;
import io.wharf.webapp.descriptor.MultipartConfig;
import io.wharf.webapp.scan.Fixtures;
import io.wharf.webapp.scan.ScannedClass;
import io.wharf.webapp.scan.ServletSecurityAnnotation;
import io.wharf.webapp.scan.ServletSecurityAnnotation.Constraint;
import io.wharf.webapp.scan.WebFilterAnnotation;
import io.wharf.webapp.scan.WebServletAnnotation;
import io.wharf.webapp.scan.fixtures.ConcretePlugin;
import io.wharf.webapp.scan.fixtures.MarkedMembers;
import io.wharf.webapp.scan.fixtures.PlainFilter;
import io.wharf.webapp.scan.fixtures.SampleFilter;
import io.wharf.webapp.scan.fixtures.SampleListener;
import io.wharf.webapp.scan.fixtures.SampleServlet;
import io.wharf.webapp.scan.fixtures.ValueServlet;
import io.wharf.webapp.scan.invalid.BothValueAndPatterns;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.HttpMethodConstraintElement;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.annotation.ServletSecurity.EmptyRoleSemantic;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/** ClassFileReader over the compiled fixtures: every servlet annotation value, the hierarchy, javax references. */
class ClassFileReaderTest {

    private static ScannedClass read(Class<?> type) {
        return ClassFileReader.read(type.getName(), Fixtures.classBytes(type));
    }

    @Test
    void readsAServletsAnnotations() {
        ScannedClass servlet = read(SampleServlet.class);
        assertEquals(SampleServlet.class.getName(), servlet.name());
        assertEquals(Optional.of("jakarta.servlet.http.HttpServlet"), servlet.superName());
        assertEquals(Optional.of(new WebServletAnnotation("sample", List.of("/sample", "/s/*"), Optional.of(2),
            Map.of("a", "1", "b", "2"), Optional.of(true))), servlet.webServlet());
        assertEquals(List.of("a", "b"), List.copyOf(servlet.webServlet().orElseThrow().initParams().keySet()));
        assertEquals(Optional.of(new MultipartConfig("/tmp/up", 1024, -1, 16)), servlet.multipartConfig());
        assertEquals(Optional.of(new ServletSecurityAnnotation(
            new Constraint(EmptyRoleSemantic.PERMIT, TransportGuarantee.NONE, List.of("user")),
            List.of(new ServletSecurityAnnotation.MethodConstraint("DELETE", new Constraint(EmptyRoleSemantic.DENY, TransportGuarantee.NONE, List.of())),
                new ServletSecurityAnnotation.MethodConstraint("GET",
                    new Constraint(EmptyRoleSemantic.PERMIT, TransportGuarantee.CONFIDENTIAL, List.of("a", "b")))))),
            servlet.servletSecurity());
        assertTrue(servlet.annotations().contains("jakarta.servlet.annotation.WebServlet"));
        assertFalse(servlet.referencesJavaxServlet());
        assertFalse(servlet.webListener());
        assertEquals(Optional.empty(), servlet.webFilter());
    }

    @Test
    void theSecurityAnnotationConvertsToTheApisElement() {
        ServletSecurityElement element = read(SampleServlet.class).servletSecurity().orElseThrow().toElement();
        assertEquals(List.of("user"), List.of(element.getRolesAllowed()));
        assertEquals(Set.of("DELETE", "GET"), Set.copyOf(element.getMethodNames()));
        HttpMethodConstraintElement delete = element.getHttpMethodConstraints().stream()
            .filter(method -> method.getMethodName().equals("DELETE")).findFirst().orElseThrow();
        assertEquals(EmptyRoleSemantic.DENY, delete.getEmptyRoleSemantic());
    }

    @Test
    void valueAndDefaultsAreReadAsAbsent() {
        WebServletAnnotation servlet = read(ValueServlet.class).webServlet().orElseThrow();
        assertEquals(new WebServletAnnotation("", List.of("/value"), Optional.empty(), Map.of(), Optional.empty()), servlet);
        assertEquals(Optional.empty(), read(ValueServlet.class).multipartConfig());
        assertEquals(Optional.empty(), read(ValueServlet.class).servletSecurity());
    }

    @Test
    void readsFilters() {
        assertEquals(Optional.of(new WebFilterAnnotation("audit", List.of("/*"), List.of("sample"),
            List.of(DispatcherType.FORWARD, DispatcherType.ERROR), Map.of("level", "high"), Optional.empty())), read(SampleFilter.class).webFilter());
        assertEquals(Optional.of(new WebFilterAnnotation("", List.of("/plain/*"), List.of(), List.of(DispatcherType.REQUEST), Map.of(),
            Optional.empty())), read(PlainFilter.class).webFilter());
        assertEquals(List.of("jakarta.servlet.Filter"), read(SampleFilter.class).interfaces());
    }

    @Test
    void readsListenersHierarchyAndMemberAnnotations() {
        assertTrue(read(SampleListener.class).webListener());
        assertEquals(Optional.of("io.wharf.webapp.scan.fixtures.BasePlugin"), read(ConcretePlugin.class).superName());
        assertEquals(List.of("io.wharf.webapp.scan.fixtures.Marker"), read(MarkedMembers.class).memberAnnotations());
        assertEquals(List.of(), read(MarkedMembers.class).annotations());
    }

    @Test
    void seesReferencesToJavaxServlet() {
        ScannedClass legacy = ClassFileReader.read("legacy", Fixtures.javaxServletClass());
        assertTrue(legacy.referencesJavaxServlet());
        assertEquals("legacy.LegacyServlet", legacy.name());
        ScannedClass jakarta = ClassFileReader.read("other", Fixtures.emptyClass("other/Plain", "java/lang/Object", List.of("javax/servlet/Filter")));
        assertTrue(jakarta.referencesJavaxServlet(), "an interface counts as a reference");
        assertFalse(ClassFileReader.read("plain", Fixtures.emptyClass("other/Plain", "java/lang/Object", List.of())).referencesJavaxServlet());
    }

    /** The skipping search finds the pattern wherever a byte-by-byte search does: at the start, the end, after near-misses. */
    @Test
    void theSearchForJavaxServletAgreesWithAPlainOne() {
        byte[] wanted = "javax/servlet/".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        int[] shifts = ClassFileReader.shifts(wanted);
        java.util.Random random = new java.util.Random(20261129);
        byte[] alphabet = "javx/sertl".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(60)];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
            }
            if (random.nextBoolean() && bytes.length >= wanted.length) {
                System.arraycopy(wanted, 0, bytes, random.nextInt(bytes.length - wanted.length + 1), wanted.length);
            }
            assertEquals(plainContains(bytes, wanted), ClassFileReader.contains(bytes, wanted, shifts), () -> java.util.Arrays.toString(bytes));
        }
        assertTrue(ClassFileReader.contains(wanted, wanted, shifts));
        assertFalse(ClassFileReader.contains("javax/servlet".getBytes(java.nio.charset.StandardCharsets.US_ASCII), wanted, shifts));
    }

    private static boolean plainContains(byte[] bytes, byte[] wanted) {
        for (int i = 0; i + wanted.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + wanted.length, wanted, 0, wanted.length)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void bothValueAndUrlPatternsIsAnError() {
        DescriptorException failure = assertThrows(DescriptorException.class,
            () -> ClassFileReader.read("classes/BothValueAndPatterns.class", Fixtures.classBytes(BothValueAndPatterns.class)));
        assertEquals("classes/BothValueAndPatterns.class: @WebServlet gives both value and urlPatterns", failure.getMessage());
    }

    @Test
    void anUnknownDispatcherTypeIsAnErrorNamingTheClass() {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V21, Opcodes.ACC_PUBLIC, "x/Odd", null, "java/lang/Object", new String[] {"jakarta/servlet/Filter"});
        AnnotationVisitor filter = writer.visitAnnotation("Ljakarta/servlet/annotation/WebFilter;", true);
        AnnotationVisitor dispatchers = filter.visitArray("dispatcherTypes");
        dispatchers.visitEnum(null, "Ljakarta/servlet/DispatcherType;", "SOMETIMES");
        dispatchers.visitEnd();
        filter.visitEnd();
        writer.visitEnd();
        DescriptorException failure = assertThrows(DescriptorException.class, () -> ClassFileReader.read("x/Odd.class", writer.toByteArray()));
        assertTrue(failure.getMessage().startsWith("x/Odd.class: a servlet annotation holds a value this Servlet API does not know"),
            failure.getMessage());
    }

    @Test
    void aFileThatIsNotAClassIsAnErrorNamingIt() {
        DescriptorException failure = assertThrows(DescriptorException.class,
            () -> ClassFileReader.read("lib/x.jar!/A.class", "not a class".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        assertTrue(failure.getMessage().startsWith("lib/x.jar!/A.class: not a class file this server can read"), failure.getMessage());
    }
}
