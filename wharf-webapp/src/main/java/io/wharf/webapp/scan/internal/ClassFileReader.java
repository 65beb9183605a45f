package io.wharf.webapp.scan.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.wharf.webapp.descriptor.DescriptorException;
import io.wharf.webapp.descriptor.MultipartConfig;
import io.wharf.webapp.scan.ScannedClass;
import io.wharf.webapp.scan.ServletSecurityAnnotation;
import io.wharf.webapp.scan.WebFilterAnnotation;
import io.wharf.webapp.scan.WebServletAnnotation;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.annotation.ServletSecurity.EmptyRoleSemantic;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Reads one class file into a {@link ScannedClass} with ASM, skipping code, debug information
 * and frames; the class is never loaded. Called by the scanner, on whichever scanning thread
 * reads the class; each call uses its own visitor.
 */
public final class ClassFileReader {

    private static final String SERVLET_ANNOTATIONS = "Ljakarta/servlet/annotation/";
    private static final byte[] JAVAX_SERVLET = "javax/servlet/".getBytes(StandardCharsets.US_ASCII);
    /** How far the search for {@link #JAVAX_SERVLET} may move on, by the byte under its last position. */
    private static final int[] SHIFTS = shifts(JAVAX_SERVLET);

    private ClassFileReader() {
    }

    /**
     * @param where the class file's place in messages ("WEB-INF/lib/a.jar!/com/example/A.class")
     * @param bytes the class file
     * @return what it says
     * @throws DescriptorException when ASM cannot read it or a servlet annotation on it is invalid
     */
    public static ScannedClass read(String where, byte[] bytes) {
        return read(where, bytes, true);
    }

    /**
     * @param lookForJavax whether to search the bytes for {@code javax/servlet/} (see
     *     {@link ScannedClass#referencesJavaxServlet()}); false leaves it false
     * @see #read(String, byte[])
     */
    public static ScannedClass read(String where, byte[] bytes, boolean lookForJavax) {
        Visitor visitor = new Visitor();
        try {
            new ClassReader(bytes).accept(visitor, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        } catch (RuntimeException e) {
            throw new DescriptorException(where + ": not a class file this server can read (" + e + ")", e);
        }
        try {
            return visitor.toScannedClass(where, lookForJavax && contains(bytes, JAVAX_SERVLET, SHIFTS));
        } catch (IllegalArgumentException e) {
            // An enum constant this Servlet API does not have, in a dispatcher type or a security constraint.
            throw new DescriptorException(where + ": a servlet annotation holds a value this Servlet API does not know (" + e.getMessage() + ")", e);
        }
    }

    /**
     * Every reference a class file makes to a type, whether in its hierarchy, a signature, an
     * annotation or its code, is a name in its constant pool, written as plain ASCII bytes there;
     * so a class refers to javax.servlet exactly when its bytes hold "javax/servlet/" (a string
     * constant written with slashes would count too). The legacy javax mode asks the same of
     * "jakarta/servlet/". Searched Horspool's way: the byte under the pattern's last position tells
     * how far it may move on, mostly its whole length, so a class file costs about one look per 14
     * bytes rather than one per byte.
     *
     * @return whether {@code bytes} hold {@code wanted}
     */
    public static boolean contains(byte[] bytes, byte[] wanted) {
        return contains(bytes, wanted, shifts(wanted));
    }

    /** {@link #contains(byte[], byte[])} with the pattern's {@link #shifts} computed once by the caller. */
    static boolean contains(byte[] bytes, byte[] wanted, int[] shifts) {
        int last = wanted.length - 1;
        for (int end = last; end < bytes.length; end += shifts[bytes[end] & 0xFF]) {
            if (Arrays.equals(bytes, end - last, end + 1, wanted, 0, wanted.length)) {
                return true;
            }
        }
        return false;
    }

    /** @return for each byte value, how far the pattern may move when that byte is under its last position */
    static int[] shifts(byte[] wanted) {
        int[] shifts = new int[256];
        Arrays.fill(shifts, wanted.length);
        for (int i = 0; i < wanted.length - 1; i++) {
            shifts[wanted[i] & 0xFF] = wanted.length - 1 - i;
        }
        return shifts;
    }

    /** Gathers a class's hierarchy and annotations as ASM visits it. */
    private static final class Visitor extends ClassVisitor {

        private String name;
        private String superName;
        private List<String> interfaces = List.of();
        private final List<String> annotations = new ArrayList<>();
        private final Set<String> memberAnnotations = new LinkedHashSet<>();
        private final Map<String, AnnotationNode> servletAnnotations = new LinkedHashMap<>();

        Visitor() {
            super(Opcodes.ASM9);
        }

        @Override
        public void visit(int version, int access, String internalName, String signature, String superInternalName, String[] interfaceNames) {
            name = binaryName(internalName);
            superName = superInternalName == null ? null : binaryName(superInternalName);
            interfaces = Arrays.stream(interfaceNames == null ? new String[0] : interfaceNames).map(Visitor::binaryName).toList();
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            annotations.add(typeName(descriptor));
            if (descriptor.startsWith(SERVLET_ANNOTATIONS)) {
                AnnotationNode node = new AnnotationNode();
                servletAnnotations.put(descriptor.substring(SERVLET_ANNOTATIONS.length(), descriptor.length() - 1), node);
                return node;
            }
            return null;
        }

        @Override
        public FieldVisitor visitField(int access, String fieldName, String descriptor, String signature, Object value) {
            return new FieldVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    memberAnnotations.add(typeName(annotation));
                    return null;
                }
            };
        }

        @Override
        public MethodVisitor visitMethod(int access, String methodName, String descriptor, String signature, String[] exceptions) {
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    memberAnnotations.add(typeName(annotation));
                    return null;
                }
            };
        }

        private static String binaryName(String internalName) {
            return internalName.replace('/', '.');
        }

        /** @return "com.example.Tag" for "Lcom/example/Tag;" */
        private static String typeName(String descriptor) {
            return binaryName(descriptor.substring(1, descriptor.length() - 1));
        }

        ScannedClass toScannedClass(String where, boolean referencesJavax) {
            return new ScannedClass(name, Optional.ofNullable(superName), interfaces, annotations, List.copyOf(memberAnnotations),
                referencesJavax,
                Optional.ofNullable(servletAnnotations.get("WebServlet")).map(node -> webServlet(where, node)),
                Optional.ofNullable(servletAnnotations.get("WebFilter")).map(node -> webFilter(where, node)),
                servletAnnotations.containsKey("WebListener"),
                Optional.ofNullable(servletAnnotations.get("MultipartConfig")).map(ClassFileReader::multipartConfig),
                Optional.ofNullable(servletAnnotations.get("ServletSecurity")).map(ClassFileReader::servletSecurity));
        }
    }

    private static WebServletAnnotation webServlet(String where, AnnotationNode node) {
        return new WebServletAnnotation(node.string("name", ""), urlPatterns(where, "@WebServlet", node),
            node.value("loadOnStartup", Integer.class), initParams(node), node.value("asyncSupported", Boolean.class));
    }

    private static WebFilterAnnotation webFilter(String where, AnnotationNode node) {
        List<DispatcherType> dispatchers = node.has("dispatcherTypes")
            ? node.strings("dispatcherTypes").stream().map(DispatcherType::valueOf).distinct().toList()
            : List.of(DispatcherType.REQUEST);
        return new WebFilterAnnotation(node.string("filterName", ""), urlPatterns(where, "@WebFilter", node),
            node.strings("servletNames"), dispatchers, initParams(node), node.value("asyncSupported", Boolean.class));
    }

    /** @return {@code urlPatterns} or {@code value}; the specification forbids giving both */
    private static List<String> urlPatterns(String where, String annotation, AnnotationNode node) {
        List<String> value = node.strings("value");
        List<String> urlPatterns = node.strings("urlPatterns");
        if (!value.isEmpty() && !urlPatterns.isEmpty()) {
            throw new DescriptorException(where + ": " + annotation + " gives both value and urlPatterns");
        }
        return value.isEmpty() ? urlPatterns : value;
    }

    private static Map<String, String> initParams(AnnotationNode node) {
        Map<String, String> params = new LinkedHashMap<>();
        for (AnnotationNode param : node.annotations("initParams")) {
            params.put(param.string("name", ""), param.string("value", ""));
        }
        return params;
    }

    private static MultipartConfig multipartConfig(AnnotationNode node) {
        MultipartConfig defaults = MultipartConfig.DEFAULT;
        return new MultipartConfig(node.string("location", defaults.location()),
            node.value("maxFileSize", Long.class).orElse(defaults.maxFileSize()),
            node.value("maxRequestSize", Long.class).orElse(defaults.maxRequestSize()),
            node.value("fileSizeThreshold", Integer.class).orElse(defaults.fileSizeThreshold()));
    }

    private static ServletSecurityAnnotation servletSecurity(AnnotationNode node) {
        ServletSecurityAnnotation.Constraint defaults = node.value("value", AnnotationNode.class)
            .map(constraint -> constraint(constraint, "value"))
            .orElse(ServletSecurityAnnotation.Constraint.DEFAULT);
        List<ServletSecurityAnnotation.MethodConstraint> methods = node.annotations("httpMethodConstraints").stream()
            .map(method -> new ServletSecurityAnnotation.MethodConstraint(method.string("value", ""), constraint(method, "emptyRoleSemantic")))
            .toList();
        return new ServletSecurityAnnotation(defaults, methods);
    }

    /** @param semanticElement where the EmptyRoleSemantic is: "value" in @HttpConstraint, "emptyRoleSemantic" in @HttpMethodConstraint */
    private static ServletSecurityAnnotation.Constraint constraint(AnnotationNode node, String semanticElement) {
        return new ServletSecurityAnnotation.Constraint(
            EmptyRoleSemantic.valueOf(node.string(semanticElement, EmptyRoleSemantic.PERMIT.name())),
            TransportGuarantee.valueOf(node.string("transportGuarantee", TransportGuarantee.NONE.name())),
            node.strings("rolesAllowed"));
    }
}
