package io.wharf.webapp.descriptor;

import java.util.Optional;

/**
 * An {@code <env-entry>}: a named value in the application's environment (java:comp/env).
 *
 * @param name {@code <env-entry-name>}
 * @param type {@code <env-entry-type>}, a class name
 * @param value {@code <env-entry-value>}
 * @param lookupName {@code <lookup-name>}
 */
public record EnvEntry(String name, Optional<String> type, Optional<String> value, Optional<String> lookupName) {
}
