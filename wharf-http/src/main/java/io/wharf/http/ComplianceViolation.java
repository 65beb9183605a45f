package io.wharf.http;

import java.util.Set;

/**
 * One named departure from a standard that a strict Wharf rejects and a legacy compliance
 * mode may allow: an obs-folded header line, an ambiguous path segment, an RFC 2965 cookie.
 * Each compliance family ({@link HttpCompliance}-style enums of the parser, the URI and the
 * cookie code) implements this with an enum of its violations, so every rejection and every
 * allowance has a name a user can read in a log or put in a configuration.
 *
 * <p>Immutable and shared; the listener is called on the thread that parses.
 */
public interface ComplianceViolation {

    /** @return the constant's name; the violation families are enums, which provide it */
    String name();

    /** @return the violation's name, as used in configuration and in error messages */
    default String getName() {
        return name();
    }

    /** @return the standard that forbids it, e.g. {@code "RFC 9112 section 5.2"} */
    String getStandard();

    /** @return a short human description of what the peer did */
    String getDescription();

    /**
     * A named set of violations that are allowed.
     *
     * @param <V> the family of violations
     */
    interface Mode<V extends ComplianceViolation> {

        /** @return the mode's name, e.g. {@code "RFC9112"} or {@code "LEGACY"} */
        String getName();

        /** @return the violations this mode allows */
        Set<V> getAllowed();

        /** @return whether {@code violation} is allowed in this mode */
        default boolean allows(V violation) {
            return getAllowed().contains(violation);
        }
    }

    /**
     * Told when a mode allowed a violation, so a deployment can log or count legacy peers.
     * Called on the parsing thread; must not block.
     */
    interface Listener {

        /** A listener that ignores everything. */
        Listener NONE = (mode, violation, details) -> { };

        /**
         * @param mode the mode that allowed it
         * @param violation what the peer did
         * @param details the offending text, possibly truncated, never null
         */
        void onComplianceViolation(Mode<?> mode, ComplianceViolation violation, String details);
    }
}
