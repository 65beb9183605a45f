package io.wharf.webapp.scan;

import java.util.List;
import java.util.Map;

import io.wharf.webapp.descriptor.WebDescriptor;

/**
 * What {@link WebAppReader} found in a WEB-INF: the effective descriptor and what the deployer
 * needs beside it.
 *
 * @param descriptor the effective descriptor (web.xml, fragments and annotations merged); for a
 *     javax application, web.xml as read, unmerged
 * @param orderedFragments the fragments that take part, in order (jars without a web-fragment.xml
 *     included as nameless fragments), for ServletContainerInitializer discovery
 * @param scans the scans made (WEB-INF/classes first, then the jars in fragment order); empty when
 *     web.xml is metadata-complete
 * @param servletSecurity the {@code @ServletSecurity} of each servlet whose class carries one, by servlet name
 * @param javaxEvidence why this is a javax.servlet application, one line per reason; empty for a Jakarta one
 */
public record WebAppMetadata(
    WebDescriptor descriptor,
    List<WebDescriptor> orderedFragments,
    List<ScanResult> scans,
    Map<String, ServletSecurityAnnotation> servletSecurity,
    List<String> javaxEvidence) {

    /** Copies the collections. */
    public WebAppMetadata {
        orderedFragments = List.copyOf(orderedFragments);
        scans = List.copyOf(scans);
        servletSecurity = Map.copyOf(servletSecurity);
        javaxEvidence = List.copyOf(javaxEvidence);
    }

    /** @return whether the application is a javax.servlet one, which a Jakarta container must refuse */
    public boolean isJavaxApplication() {
        return !javaxEvidence.isEmpty();
    }

    /** @return an index for @HandlesTypes over the scanned classes, reading unscanned supertypes from {@code supertypes} */
    public HandlesTypesIndex handlesTypes(ClassLoader supertypes) {
        return new HandlesTypesIndex(scans, supertypes);
    }
}
