package io.wharf.webapp.descriptor;

/** Which document a {@link WebDescriptor} came from: the application's web.xml, a jar's web-fragment.xml, or the annotations of a set of classes. */
public enum DescriptorKind {
    /** WEB-INF/web.xml, root element {@code <web-app>}. */
    WEB_APP,
    /** META-INF/web-fragment.xml of a WEB-INF/lib jar, root element {@code <web-fragment>}. */
    WEB_FRAGMENT,
    /** Entries made from the servlet annotations of scanned classes (no document). */
    ANNOTATIONS
}
