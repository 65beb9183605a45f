package io.wharf.webapp.descriptor;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The conflict rule of Servlet 6.1 section 8.2.3 for one merge: a value the primary descriptor
 * (web.xml) gives wins; otherwise the secondary ones (the fragments, in order) must agree, and a
 * value two of them give differently is an error naming both. Used by {@link DescriptorMerger}
 * for one merge on one thread.
 */
final class Agreement {

    private final WebDescriptor primary;
    private final List<WebDescriptor> secondaries;

    Agreement(WebDescriptor primary, List<WebDescriptor> secondaries) {
        this.primary = primary;
        this.secondaries = secondaries;
    }

    /**
     * @param what the value's description in a message ("<display-name>")
     * @param primaryValue the primary's value
     * @param valueOf a secondary's value
     * @return the primary's value if present, else the one the secondaries agree on, if any
     */
    <T> Optional<T> value(String what, Optional<T> primaryValue, Function<WebDescriptor, Optional<T>> valueOf) {
        if (primaryValue.isPresent()) {
            return primaryValue;
        }
        T chosen = null;
        WebDescriptor chosenFrom = null;
        for (WebDescriptor secondary : secondaries) {
            Optional<T> value = valueOf.apply(secondary);
            if (value.isEmpty()) {
                continue;
            }
            if (chosen == null) {
                chosen = value.get();
                chosenFrom = secondary;
            } else if (!chosen.equals(value.get())) {
                throw new DescriptorException(what + " is " + quote(chosen) + " in " + FragmentOrdering.describe(chosenFrom)
                    + " but " + quote(value.get()) + " in " + FragmentOrdering.describe(secondary)
                    + ", and " + primary.source() + " does not settle it");
            }
        }
        return Optional.ofNullable(chosen);
    }

    /** @return the primary's entries, then each key only secondaries have with the value they agree on, in the order met */
    <V> Map<String, V> map(String what, Map<String, V> primaryMap, Function<WebDescriptor, Map<String, V>> mapOf) {
        Map<String, V> merged = new LinkedHashMap<>(primaryMap);
        for (WebDescriptor secondary : secondaries) {
            for (String key : mapOf.apply(secondary).keySet()) {
                if (!merged.containsKey(key)) {
                    merged.put(key, value(what + " '" + key + "'", Optional.empty(),
                        other -> Optional.ofNullable(mapOf.apply(other).get(key))).orElseThrow());
                }
            }
        }
        return merged;
    }

    /** @return {@link #map} over lists whose entries are keyed by {@code key} */
    <V> List<V> keyed(String what, List<V> primaryList, Function<WebDescriptor, List<V>> listOf, Function<V, String> key) {
        return List.copyOf(map(what, byKey(primaryList, key), secondary -> byKey(listOf.apply(secondary), key)).values());
    }

    private static <V> Map<String, V> byKey(List<V> list, Function<V, String> key) {
        Map<String, V> map = new LinkedHashMap<>();
        list.forEach(value -> map.putIfAbsent(key.apply(value), value));
        return map;
    }

    private static String quote(Object value) {
        return value instanceof String ? "'" + value + "'" : String.valueOf(value);
    }
}
