package io.wharf.webapp.descriptor;

import java.util.Optional;

/**
 * A {@code <resource-ref>}: a named resource (a DataSource, say) the application looks up.
 *
 * @param name {@code <res-ref-name>}
 * @param type {@code <res-type>}, a class name
 * @param auth {@code <res-auth>}: Application or Container
 * @param sharingScope {@code <res-sharing-scope>}: Shareable or Unshareable
 * @param lookupName {@code <lookup-name>}
 */
public record ResourceRef(String name, Optional<String> type, Optional<String> auth, Optional<String> sharingScope, Optional<String> lookupName) {
}
