package io.wharf.http.pathmap;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An ordered set of mappings from {@link PathSpec}s to resources (handlers, servlets,
 * contexts), answering which resource best serves a decoded path. The server's path-mapping
 * and context handlers build one at configuration time and look paths up on every request.
 *
 * <p><b>Precedence.</b> Of the specs that match a path, the best is the one of the earliest
 * {@link PathSpecGroup}: EXACT, then ROOT, then MIDDLE_GLOB, then PREFIX_GLOB, then
 * SUFFIX_GLOB, then DEFAULT. Within a group, the spec with the longer declaration wins, and
 * between declarations of equal length the one put first. For servlet-style specs this is
 * the servlet specification's order (12.1): an exact match, then the longest path prefix
 * ({@code /a/b/*} before {@code /a/*} before {@code /*}), then the extension, then the default
 * {@code /}; the root {@code ""} comes right after exact specs. Regex and template specs
 * take the group their shape gives them (see {@link RegexPathSpec} and
 * {@link UriTemplatePathSpec}) and within it compete with servlet-style specs by declaration
 * length: {@code /users/{id}} (PREFIX_GLOB, 11 characters) beats {@code /users/*} (8) on
 * {@code /users/7}, while {@code /users/7/posts} goes to {@code /users/*}; a MIDDLE_GLOB
 * spec, which only regexes and templates have, beats every prefix and suffix spec.
 *
 * <p><b>Cost.</b> Exact specs are found with one hash lookup; prefix specs with one walk
 * over the path's {@code /} positions, looking up each candidate prefix without making
 * substrings; suffix specs with one walk back over the last segment's {@code .} positions.
 * So hundreds of servlet-style specs cost no more than a few. Regex and template specs are
 * tried one by one in precedence order, stopping at the first that matches or that ranks
 * below the best servlet-style match. Only the answer allocates.
 *
 * <p><b>Threads.</b> Look-ups may run on any number of threads at once, without locks: they
 * read an immutable table published through a volatile field. Mutations ({@code put},
 * {@code remove}) are synchronized and only mark the table stale; the next look-up rebuilds
 * it once, in time O(n log n), so a mapping built with many puts costs one rebuild. The
 * intended use is to build the mappings before the server starts; mutating while serving is
 * safe but each look-up racing a mutation sees the state before or after it, and a
 * look-up after each of many mutations pays a rebuild each time.
 *
 * <p>Iteration gives the mappings in precedence order, from a snapshot.
 *
 * @param <E> the type of the resources
 */
public final class PathMappings<E> implements Iterable<PathMappings.Mapping<E>> {

    /**
     * One spec and its resource, as iteration gives them.
     *
     * @param pathSpec the spec
     * @param resource the resource mapped to it
     * @param <E> the type of the resources
     */
    public record Mapping<E>(PathSpec pathSpec, E resource) {
    }

    /** In declaration order: putting a spec again keeps its place. Guarded by {@code this}. */
    private final Map<PathSpec, E> declared = new LinkedHashMap<>();
    /** The table of {@link #declared}, or null when a mutation made it stale. */
    private volatile MappingTable<E> table;

    /**
     * Maps {@code pathSpec} to {@code resource}, replacing the resource of an equal spec
     * already present (which keeps its place in declaration order).
     *
     * @return the resource the spec had, or null
     */
    public synchronized E put(PathSpec pathSpec, E resource) {
        Objects.requireNonNull(pathSpec, "pathSpec");
        Objects.requireNonNull(resource, "resource");
        E previous = declared.put(pathSpec, resource);
        table = null;
        return previous;
    }

    /**
     * Reads {@code declaration} with {@link PathSpec#from(String)} and maps it.
     *
     * @return the resource the spec had, or null
     * @throws IllegalArgumentException naming the problem when the declaration is not valid
     */
    public E put(String declaration, E resource) {
        return put(PathSpec.from(declaration), resource);
    }

    /** @return the resource {@code pathSpec} had, or null when it was not mapped */
    public synchronized E remove(PathSpec pathSpec) {
        E removed = declared.remove(pathSpec);
        if (removed != null) {
            table = null;
        }
        return removed;
    }

    /** @return the resource mapped to {@code pathSpec} (not a path: a spec), or null */
    public synchronized E get(PathSpec pathSpec) {
        return declared.get(pathSpec);
    }

    /** @return the number of mappings */
    public int size() {
        return table().mappings().size();
    }

    /** @return whether there are no mappings */
    public boolean isEmpty() {
        return size() == 0;
    }

    /**
     * @param path a decoded path starting with {@code /}
     * @return the best mapping for the path with how it matched, or null when none matches
     * @throws IllegalArgumentException when {@code path} does not start with {@code /}
     * @throws io.wharf.http.BadMessageException (400) when a regex spec tried would need more
     *     steps than its budget allows
     */
    public MatchedResource<E> getMatched(String path) {
        return table().getMatched(path);
    }

    /**
     * @param path a decoded path starting with {@code /}
     * @return every mapping that matches the path, best first; empty when none does
     * @throws IllegalArgumentException when {@code path} does not start with {@code /}
     * @throws io.wharf.http.BadMessageException (400) when a regex spec would need more steps
     *     than its budget allows
     */
    public List<MatchedResource<E>> getMatches(String path) {
        return table().getMatches(path);
    }

    /** @return the mappings in precedence order, from a snapshot; the iterator cannot remove */
    @Override
    public Iterator<Mapping<E>> iterator() {
        return table().mappings().iterator();
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("PathMappings[");
        String separator = "";
        for (Mapping<E> mapping : this) {
            text.append(separator).append('\'').append(mapping.pathSpec().getDeclaration()).append("'->")
                    .append(mapping.resource());
            separator = ", ";
        }
        return text.append(']').toString();
    }

    private MappingTable<E> table() {
        MappingTable<E> current = table;
        return current != null ? current : rebuild();
    }

    private synchronized MappingTable<E> rebuild() {
        MappingTable<E> current = table;
        if (current == null) {
            current = new MappingTable<>(declared);
            table = current;
        }
        return current;
    }
}
