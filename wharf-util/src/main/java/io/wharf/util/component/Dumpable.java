package io.wharf.util.component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;

/**
 * Something that can describe its state, and that of its children, as indented text.
 * A dump is for people: one line per object, children indented beneath their parent.
 */
public interface Dumpable {

    /**
     * Appends this object's description and its children's to {@code out}.
     *
     * @param out where to write
     * @param indent the prefix of every line after the first
     */
    void dump(Appendable out, String indent) throws IOException;

    /** @return the whole dump as a String */
    default String dump() {
        StringBuilder out = new StringBuilder();
        try {
            dump(out, "");
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return out.toString();
    }

    /** @return the first line of this object's dump; by default its {@code toString()} */
    default String dumpSelf() {
        return toString();
    }

    /**
     * Writes {@code self} on a line, then each child beneath it, tree-drawn.
     * Children that are {@link Dumpable} dump their own children.
     */
    static void dumpObjects(Appendable out, String indent, Object self, Collection<?> children) throws IOException {
        out.append(self instanceof Dumpable d ? d.dumpSelf() : String.valueOf(self)).append(System.lineSeparator());
        int left = children.size();
        for (Object child : children) {
            boolean last = --left == 0;
            out.append(indent).append(last ? "+= " : "+- ");
            String childIndent = indent + (last ? "   " : "|  ");
            if (child instanceof Dumpable dumpable) {
                dumpable.dump(out, childIndent);
            } else {
                out.append(String.valueOf(child)).append(System.lineSeparator());
            }
        }
    }
}
