/**
 * The servlet annotations of a web application's classes, read from class files with ASM
 * without loading a class (Servlet 6.1 section 8.1): {@link io.wharf.webapp.scan.AnnotationScanner}
 * reads WEB-INF/classes and WEB-INF/lib jars (jars in parallel, cached per jar by content hash)
 * into {@link io.wharf.webapp.scan.ScanResult}s; {@link io.wharf.webapp.scan.AnnotationDescriptors}
 * turns them into descriptor entries; {@link io.wharf.webapp.scan.HandlesTypesIndex} answers
 * {@code @HandlesTypes}; {@link io.wharf.webapp.scan.WebAppReader} puts descriptors and
 * annotations of an exploded WEB-INF together. The records here are immutable.
 */
package io.wharf.webapp.scan;
