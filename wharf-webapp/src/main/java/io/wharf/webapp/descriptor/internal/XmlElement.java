package io.wharf.webapp.descriptor.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.wharf.webapp.descriptor.DescriptorException;

/**
 * One element of a descriptor as {@link XmlTreeReader} read it: its local name, the line it
 * starts on, its attributes, its text trimmed and its children in the descriptor's namespace.
 * The readers navigate it and raise errors that name the document and the line; built and
 * read by one thread.
 */
public final class XmlElement {

    private final String source;
    private final String name;
    private final int line;
    private final Map<String, String> attributes;
    private final StringBuilder text = new StringBuilder();
    private final List<XmlElement> children = new ArrayList<>();

    XmlElement(String source, String name, int line, Map<String, String> attributes) {
        this.source = source;
        this.name = name;
        this.line = line;
        this.attributes = attributes;
    }

    void appendText(String characters) {
        text.append(characters);
    }

    void addChild(XmlElement child) {
        children.add(child);
    }

    /** @return the element's local name */
    public String name() {
        return name;
    }

    /** @return the line its start tag is on */
    public int line() {
        return line;
    }

    /** @return the name of the document it is in */
    public String source() {
        return source;
    }

    /** @return its text content, trimmed as the schema's token types are */
    public String text() {
        return text.toString().strip();
    }

    /** @return the attribute's value trimmed, if present */
    public Optional<String> attribute(String attributeName) {
        return Optional.ofNullable(attributes.get(attributeName)).map(String::strip);
    }

    /** @return its children in document order */
    public List<XmlElement> children() {
        return children;
    }

    /** @return its children of this name in document order */
    public List<XmlElement> children(String childName) {
        return children.stream().filter(child -> child.name.equals(childName)).toList();
    }

    /** @return its first child of this name */
    public Optional<XmlElement> child(String childName) {
        return children.stream().filter(child -> child.name.equals(childName)).findFirst();
    }

    /** @return whether it has a child of this name */
    public boolean has(String childName) {
        return child(childName).isPresent();
    }

    /** @return the trimmed text of its first child of this name; empty when there is none or its text is empty */
    public Optional<String> optionalText(String childName) {
        return child(childName).map(XmlElement::text).filter(value -> !value.isEmpty());
    }

    /** @return the trimmed, non-empty text of its first child of this name; throws naming this element when there is none */
    public String requiredText(String childName) {
        return optionalText(childName).orElseThrow(() -> fail("<" + name + "> has no <" + childName + ">"));
    }

    /** @return the trimmed, non-empty texts of its children of this name */
    public List<String> texts(String childName) {
        return children(childName).stream().map(XmlElement::text).filter(value -> !value.isEmpty()).toList();
    }

    /** @return an exception for a problem with this element, naming the document and its line */
    public DescriptorException fail(String problem) {
        return DescriptorException.at(source, line, problem);
    }
}
