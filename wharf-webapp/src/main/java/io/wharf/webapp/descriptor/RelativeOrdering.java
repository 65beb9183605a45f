package io.wharf.webapp.descriptor;

import java.util.List;

/**
 * A fragment's {@code <ordering>} (Servlet 6.1 section 8.2.2): the named fragments it must come
 * before and after, and whether it comes before or after all the others.
 *
 * @param before names in {@code <before>}
 * @param beforeOthers whether {@code <before>} holds {@code <others/>}
 * @param after names in {@code <after>}
 * @param afterOthers whether {@code <after>} holds {@code <others/>}
 */
public record RelativeOrdering(List<String> before, boolean beforeOthers, List<String> after, boolean afterOthers) {

    /** No ordering. */
    public static final RelativeOrdering NONE = new RelativeOrdering(List.of(), false, List.of(), false);

    /** Copies the lists. */
    public RelativeOrdering {
        before = List.copyOf(before);
        after = List.copyOf(after);
    }
}
