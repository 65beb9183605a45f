package io.wharf.http.pathmap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lookup structures of one state of a {@link PathMappings}, built in one go and never
 * changed: exact specs in a hash map, prefix and suffix specs in {@link RegionTable}s walked
 * along the path, the root and default specs in fields, and regex and template specs in one
 * list per group in precedence order. See {@link PathMappings} for the precedence.
 *
 * <p>Immutable once built; read by any number of threads after {@link PathMappings}
 * publishes it through a volatile field.
 *
 * @param <E> the type of the resources
 */
final class MappingTable<E> {

    /** A mapping with its place in declaration order, which breaks ties. */
    private record Ranked<E>(PathSpec spec, E resource, int order) {
    }

    /** A mapping that matched a path, with how it matched. */
    private record Hit<E>(Ranked<E> ranked, MatchedPath matchedPath) {
    }

    /** Earlier group first; within a group the longer declaration, then the earlier declared. */
    private static final Comparator<Ranked<?>> PRECEDENCE = Comparator
            .<Ranked<?>>comparingInt(ranked -> ranked.spec().getGroup().ordinal())
            .thenComparing(Comparator.<Ranked<?>>comparingInt(ranked -> ranked.spec().getSpecLength()).reversed())
            .thenComparingInt(Ranked::order);

    private static final PathSpecGroup[] GROUPS = PathSpecGroup.values();

    private final List<PathMappings.Mapping<E>> mappings;
    private final Map<String, Ranked<E>> exact;
    private final Ranked<E> root;
    private final RegionTable<Ranked<E>> prefixes;
    private final RegionTable<Ranked<E>> suffixes;
    private final Ranked<E> fallback;
    /** Regex and template specs, by group ordinal, each list in precedence order. */
    private final List<List<Ranked<E>>> patterns;

    /** @param declared the mappings in declaration order */
    MappingTable(Map<PathSpec, E> declared) {
        List<Ranked<E>> all = new ArrayList<>(declared.size());
        Map<String, Ranked<E>> exactPaths = new HashMap<>();
        Map<String, Ranked<E>> prefixKeys = new HashMap<>();
        Map<String, Ranked<E>> suffixKeys = new HashMap<>();
        Ranked<E> rootMapping = null;
        Ranked<E> defaultMapping = null;
        List<List<Ranked<E>>> byGroup = new ArrayList<>(GROUPS.length);
        for (int g = 0; g < GROUPS.length; g++) {
            byGroup.add(new ArrayList<>());
        }
        for (Map.Entry<PathSpec, E> entry : declared.entrySet()) {
            Ranked<E> ranked = new Ranked<>(entry.getKey(), entry.getValue(), all.size());
            all.add(ranked);
            switch (ranked.spec()) {
                case ExactPathSpec spec -> exactPaths.put(spec.path(), ranked);
                case PrefixPathSpec spec -> prefixKeys.put(spec.prefix(), ranked);
                case SuffixPathSpec spec -> suffixKeys.put(spec.suffix(), ranked);
                case RootPathSpec spec -> rootMapping = ranked;
                case DefaultPathSpec spec -> defaultMapping = ranked;
                case RegexPathSpec spec -> byGroup.get(spec.getGroup().ordinal()).add(ranked);
                case UriTemplatePathSpec spec -> byGroup.get(spec.getGroup().ordinal()).add(ranked);
            }
        }
        all.sort(PRECEDENCE);
        byGroup.forEach(group -> group.sort(PRECEDENCE));
        this.mappings = all.stream().map(ranked -> new PathMappings.Mapping<>(ranked.spec(), ranked.resource())).toList();
        this.exact = exactPaths;
        this.root = rootMapping;
        this.prefixes = new RegionTable<>(prefixKeys);
        this.suffixes = new RegionTable<>(suffixKeys);
        this.fallback = defaultMapping;
        this.patterns = byGroup.stream().map(List::copyOf).toList();
    }

    /** @return every mapping in precedence order; unmodifiable */
    List<PathMappings.Mapping<E>> mappings() {
        return mappings;
    }

    MatchedResource<E> getMatched(String path) {
        DecodedPath.requireAbsolute(path);
        for (PathSpecGroup group : GROUPS) {
            Ranked<E> best = servletStyleMatch(group, path);
            MatchedPath bestPath = null;
            for (Ranked<E> candidate : patterns.get(group.ordinal())) {
                if (best != null && PRECEDENCE.compare(candidate, best) > 0) {
                    break; // this and every later pattern rank below the servlet-style match
                }
                MatchedPath matched = candidate.spec().matched(path);
                if (matched != null) {
                    best = candidate;
                    bestPath = matched;
                    break;
                }
            }
            if (best != null) {
                return new MatchedResource<>(best.resource(), best.spec(),
                        bestPath != null ? bestPath : best.spec().matched(path));
            }
        }
        return null;
    }

    List<MatchedResource<E>> getMatches(String path) {
        DecodedPath.requireAbsolute(path);
        List<Ranked<E>> servletStyle = new ArrayList<>();
        Ranked<E> exactMatch = exact.get(path);
        if (exactMatch != null) {
            servletStyle.add(exactMatch);
        }
        if (root != null && path.length() == 1) {
            servletStyle.add(root);
        }
        longestPrefix(path, servletStyle);
        longestSuffix(path, servletStyle);
        if (fallback != null) {
            servletStyle.add(fallback);
        }
        List<Hit<E>> hits = new ArrayList<>();
        for (Ranked<E> ranked : servletStyle) {
            hits.add(new Hit<>(ranked, ranked.spec().matched(path)));
        }
        for (List<Ranked<E>> group : patterns) {
            for (Ranked<E> ranked : group) {
                MatchedPath matched = ranked.spec().matched(path);
                if (matched != null) {
                    hits.add(new Hit<>(ranked, matched));
                }
            }
        }
        hits.sort(Comparator.comparing(Hit::ranked, PRECEDENCE));
        List<MatchedResource<E>> matches = new ArrayList<>(hits.size());
        for (Hit<E> hit : hits) {
            matches.add(new MatchedResource<>(hit.ranked().resource(), hit.ranked().spec(), hit.matchedPath()));
        }
        return matches;
    }

    /** @return the best exact, root, prefix, suffix or default spec of {@code group} matching the path, or null */
    private Ranked<E> servletStyleMatch(PathSpecGroup group, String path) {
        return switch (group) {
            case EXACT -> exact.get(path);
            case ROOT -> path.length() == 1 ? root : null;
            case PREFIX_GLOB -> longestPrefix(path, null);
            case SUFFIX_GLOB -> longestSuffix(path, null);
            case MIDDLE_GLOB -> null;
            case DEFAULT -> fallback;
        };
    }

    /**
     * Walks the path once from the start, looking up the text before each {@code /} and the
     * whole path as a prefix spec's prefix, up to the longest prefix declared.
     *
     * @param all when not null, receives every matching prefix spec, shortest first
     * @return the prefix spec with the longest matching prefix, or null
     */
    private Ranked<E> longestPrefix(String path, List<Ranked<E>> all) {
        int end = Math.min(path.length(), prefixes.longestKey());
        Ranked<E> longest = null;
        int hash = 0;
        for (int i = 0; i <= end; i++) {
            if (i == path.length() || path.charAt(i) == '/') {
                Ranked<E> hit = prefixes.get(path, 0, i, hash);
                if (hit != null) {
                    longest = hit;
                    if (all != null) {
                        all.add(hit);
                    }
                }
            }
            if (i < end) {
                hash = 31 * hash + path.charAt(i);
            }
        }
        return longest;
    }

    /**
     * Walks the last segment of the path once from its end, looking up the text after each
     * {@code .} as a suffix spec's suffix, up to the longest suffix declared.
     *
     * @param all when not null, receives every matching suffix spec, shortest first
     * @return the suffix spec with the longest matching suffix, or null
     */
    private Ranked<E> longestSuffix(String path, List<Ranked<E>> all) {
        int longestKey = suffixes.longestKey();
        if (longestKey < 0) {
            return null;
        }
        int length = path.length();
        int stop = Math.max(path.lastIndexOf('/') + 1, length - longestKey - 1);
        Ranked<E> longest = null;
        int hash = 0;
        int power = 1;
        for (int i = length - 1; i >= stop; i--) {
            char c = path.charAt(i);
            if (c == '.') {
                Ranked<E> hit = suffixes.get(path, i + 1, length - i - 1, hash);
                if (hit != null) {
                    longest = hit;
                    if (all != null) {
                        all.add(hit);
                    }
                }
            }
            hash += c * power;
            power *= 31;
        }
        return longest;
    }
}
