package io.wharf.webapp.descriptor;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** The immutable, order-keeping map copy the model's records make of what they are given; called by their constructors. */
final class Copies {

    private Copies() {
    }

    /** @return an unmodifiable copy of {@code map} in its iteration order; throws on a null key or value */
    static <K, V> Map<K, V> orderedMap(Map<K, V> map) {
        LinkedHashMap<K, V> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> copy.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value")));
        return Collections.unmodifiableMap(copy);
    }
}
