package io.wharf.http.internal;

import java.util.Objects;

import io.wharf.http.BadMessageException;
import io.wharf.http.ComplianceViolation;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpStatus;

/**
 * Decides, for one parser, whether a violation passes: when the {@link HttpCompliance} mode
 * allows it, the violation is reported to the listener and the parser carries on; otherwise
 * a {@link BadMessageException} is thrown. Immutable; used on the parser's thread.
 */
public final class ComplianceGate {

    private final HttpCompliance mode;
    private final ComplianceViolation.Listener listener;

    public ComplianceGate(HttpCompliance mode, ComplianceViolation.Listener listener) {
        this.mode = Objects.requireNonNull(mode, "compliance");
        this.listener = Objects.requireNonNull(listener, "violation listener");
    }

    /** @return the mode this gate applies */
    public HttpCompliance mode() {
        return mode;
    }

    /** @return whether the mode allows {@code violation}; does not report it */
    public boolean allows(HttpCompliance.Violation violation) {
        return mode.allows(violation);
    }

    /**
     * Lets {@code violation} pass, reporting it with {@code details} (already escaped), or
     * throws a 400 whose reason is {@code reason}.
     */
    public void check(HttpCompliance.Violation violation, String details, String reason) {
        check(violation, details, HttpStatus.BAD_REQUEST_400, reason);
    }

    /**
     * Lets {@code violation} pass, reporting it with {@code details} (already escaped), or
     * throws a {@link BadMessageException} with {@code status} and {@code reason}, which also
     * names the violation and the mode.
     */
    public void check(HttpCompliance.Violation violation, String details, int status, String reason) {
        if (!mode.allows(violation)) {
            throw new BadMessageException(status, reason + " (" + violation.getName() + " not allowed by " +
                    mode.getName() + ")");
        }
        listener.onComplianceViolation(mode, violation, details);
    }
}
