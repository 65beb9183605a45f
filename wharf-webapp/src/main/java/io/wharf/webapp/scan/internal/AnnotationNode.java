package io.wharf.webapp.scan.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The values of one annotation as a class file holds them, gathered by ASM's callbacks: by
 * element name, a String, boxed primitive, enum constant name (String), nested {@code
 * AnnotationNode} or a List of those. Elements left to their defaults are absent, as in the
 * class file. Filled and read by the thread reading the class.
 */
final class AnnotationNode extends AnnotationVisitor {

    private final Map<String, Object> values = new LinkedHashMap<>();
    private final List<Object> array;

    AnnotationNode() {
        this(null);
    }

    private AnnotationNode(List<Object> array) {
        super(Opcodes.ASM9);
        this.array = array;
    }

    private void put(String name, Object value) {
        if (array != null) {
            array.add(value);
        } else {
            values.put(name, value);
        }
    }

    @Override
    public void visit(String name, Object value) {
        put(name, value);
    }

    @Override
    public void visitEnum(String name, String descriptor, String value) {
        put(name, value);
    }

    @Override
    public AnnotationVisitor visitAnnotation(String name, String descriptor) {
        AnnotationNode nested = new AnnotationNode();
        put(name, nested);
        return nested;
    }

    @Override
    public AnnotationVisitor visitArray(String name) {
        List<Object> list = new ArrayList<>();
        put(name, list);
        return new AnnotationNode(list);
    }

    /** @return whether the class file gives this element */
    boolean has(String name) {
        return values.containsKey(name);
    }

    /** @return the element's value, if given */
    <T> Optional<T> value(String name, Class<T> type) {
        return Optional.ofNullable(values.get(name)).filter(type::isInstance).map(type::cast);
    }

    /** @return the element's String value, or {@code otherwise} */
    String string(String name, String otherwise) {
        return value(name, String.class).orElse(otherwise);
    }

    /** @return the element's array of Strings (or of enum constant names), empty when not given */
    List<String> strings(String name) {
        return list(name).stream().filter(String.class::isInstance).map(String.class::cast).toList();
    }

    /** @return the element's array of annotations, empty when not given */
    List<AnnotationNode> annotations(String name) {
        return list(name).stream().filter(AnnotationNode.class::isInstance).map(AnnotationNode.class::cast).toList();
    }

    private List<?> list(String name) {
        Object value = values.get(name);
        return value instanceof List<?> list ? list : List.of();
    }
}
