package io.wharf.http;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Function;

/**
 * What the compliance modes ({@link HttpCompliance}, {@link UriCompliance},
 * {@link CookieCompliance}) share: a name, an immutable set of allowed violations, and the
 * reading of {@code "MODE,+VIOLATION,-VIOLATION"} adjustments. Each family keeps its own named
 * modes and the words of its error messages. Immutable; shared by any number of threads.
 *
 * @param <V> the family's violations
 */
abstract class NamedComplianceMode<V extends Enum<V> & ComplianceViolation> implements ComplianceViolation.Mode<V> {

    private final String name;
    private final Set<V> allowed;

    NamedComplianceMode(String name, Class<V> type, Set<V> allowed) {
        EnumSet<V> copy = EnumSet.noneOf(type);
        copy.addAll(allowed);
        this.name = name;
        this.allowed = Collections.unmodifiableSet(copy);
    }

    @Override
    public final String getName() {
        return name;
    }

    @Override
    public final Set<V> getAllowed() {
        return allowed;
    }

    @Override
    public final boolean allows(V violation) {
        return allowed.contains(violation);
    }

    /**
     * Applies the adjustments {@code parts[1..]} to {@code base}: {@code +NAME} allows a
     * violation, {@code -NAME} refuses it.
     *
     * @param violation finds the violation named by the text after the sign (untrimmed), or
     *     throws the family's "unknown violation" error
     * @param notAnAdjustment the family's error for an element that is not {@code +NAME} or
     *     {@code -NAME}; null when a bare {@code NAME} allows it and empty elements are skipped
     */
    static <V extends Enum<V>> EnumSet<V> adjust(Set<V> base, Class<V> type, String[] parts,
                                                 Function<String, V> violation,
                                                 Function<String, IllegalArgumentException> notAnAdjustment) {
        EnumSet<V> allowed = EnumSet.noneOf(type);
        allowed.addAll(base);
        for (int i = 1; i < parts.length; i++) {
            String adjustment = parts[i].strip();
            char sign = adjustment.isEmpty() ? 0 : adjustment.charAt(0);
            boolean signed = sign == '+' || sign == '-';
            if (notAnAdjustment != null && (!signed || adjustment.length() < 2)) {
                throw notAnAdjustment.apply(adjustment);
            }
            if (adjustment.isEmpty()) {
                continue;
            }
            V named = violation.apply(signed ? adjustment.substring(1) : adjustment);
            if (sign == '-') {
                allowed.remove(named);
            } else {
                allowed.add(named);
            }
        }
        return allowed;
    }
}
