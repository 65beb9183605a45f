package io.wharf.webapp.descriptor.internal;

import java.io.ByteArrayInputStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import io.wharf.webapp.descriptor.DescriptorException;

/**
 * Reads a descriptor's bytes into a tree of {@link XmlElement}s with the JDK's StAX reader,
 * safely: no DTD is processed and no external entity is resolved (a DOCTYPE is skipped, an
 * entity it would declare is an error), and the tree is built without recursion. Children in
 * another namespace than the root's (vendor extensions) are left out. One call, one thread.
 */
public final class XmlTreeReader {

    private static final XMLInputFactory FACTORY = newFactory();

    private XmlTreeReader() {
    }

    private static XMLInputFactory newFactory() {
        XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        factory.setProperty(XMLInputFactory.IS_COALESCING, true);
        return factory;
    }

    /**
     * Reads a whole document.
     *
     * @param source the document's name for messages
     * @param bytes the document
     * @return the root element and its namespace
     * @throws DescriptorException when the document is not well-formed or uses an entity
     */
    public static Root read(String source, byte[] bytes) {
        XMLStreamReader reader = null;
        try {
            synchronized (FACTORY) {
                reader = FACTORY.createXMLStreamReader(new ByteArrayInputStream(bytes));
            }
            Deque<XmlElement> open = new ArrayDeque<>();
            XmlElement root = null;
            String rootNamespace = null;
            while (reader.hasNext()) {
                int event = reader.next();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    String namespace = reader.getNamespaceURI() == null ? "" : reader.getNamespaceURI();
                    if (rootNamespace == null) {
                        rootNamespace = namespace;
                    }
                    XmlElement element = new XmlElement(source, reader.getLocalName(), reader.getLocation().getLineNumber(), attributes(reader));
                    boolean inView = namespace.equals(rootNamespace) && (open.isEmpty() || open.peek() != IGNORED);
                    if (root == null) {
                        root = element;
                    } else if (inView) {
                        open.peek().addChild(element);
                    }
                    open.push(inView ? element : IGNORED);
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    open.pop();
                } else if ((event == XMLStreamConstants.CHARACTERS || event == XMLStreamConstants.CDATA)
                    && !open.isEmpty() && open.peek() != IGNORED) {
                    open.peek().appendText(reader.getText());
                } else if (event == XMLStreamConstants.ENTITY_REFERENCE) {
                    throw DescriptorException.at(source, reader.getLocation().getLineNumber(),
                        "entity reference &" + reader.getLocalName() + "; is not allowed (no DTD is read)");
                }
            }
            if (root == null) {
                throw DescriptorException.at(source, 0, "the document has no root element");
            }
            return new Root(root, rootNamespace);
        } catch (XMLStreamException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNumber();
            throw new DescriptorException(DescriptorException.at(source, line, "not well-formed XML: " + reason(e)).getMessage(), e);
        } finally {
            close(reader);
        }
    }

    /** A placeholder pushed for an element of another namespace, whose subtree (text included) is left out; never written to. */
    private static final XmlElement IGNORED = new XmlElement("", "", 0, Map.of());

    private static Map<String, String> attributes(XMLStreamReader reader) {
        Map<String, String> attributes = new HashMap<>();
        for (int i = 0; i < reader.getAttributeCount(); i++) {
            String namespace = reader.getAttributeNamespace(i);
            if (namespace == null || namespace.isEmpty()) {
                attributes.put(reader.getAttributeLocalName(i), reader.getAttributeValue(i));
            }
        }
        return attributes;
    }

    private static String reason(XMLStreamException e) {
        String message = String.valueOf(e.getMessage());
        int at = message.indexOf("Message: ");
        return at < 0 ? message : message.substring(at + "Message: ".length()).strip();
    }

    private static void close(XMLStreamReader reader) {
        if (reader != null) {
            try {
                reader.close();
            } catch (XMLStreamException ignored) {
                // Reading from an array: nothing to release.
            }
        }
    }

    /**
     * The root of a document and its namespace.
     *
     * @param element the root element
     * @param namespaceUri its namespace URI, "" for none
     */
    public record Root(XmlElement element, String namespaceUri) {
    }
}
