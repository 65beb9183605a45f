package io.wharf.webapp.descriptor;

import java.util.List;
import java.util.OptionalInt;

/**
 * web.xml's {@code <absolute-ordering>} (Servlet 6.1 section 8.2.2): fragment names in order,
 * and where the fragments it does not name go, if anywhere.
 *
 * @param names the {@code <name>}s in document order, without repeats
 * @param othersPosition the index in {@code names} before which {@code <others/>} stands
 *     ({@code names.size()} when it is last); empty when there is no {@code <others/>}, and then
 *     the fragments not named are left out of the application
 */
public record AbsoluteOrdering(List<String> names, OptionalInt othersPosition) {

    /** Copies the list. */
    public AbsoluteOrdering {
        names = List.copyOf(names);
    }
}
