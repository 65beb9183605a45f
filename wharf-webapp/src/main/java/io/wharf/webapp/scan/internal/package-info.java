/**
 * How class files are read and scans are cached: {@link io.wharf.webapp.scan.internal.ClassFileReader}
 * (an ASM visitor), {@link io.wharf.webapp.scan.internal.AnnotationNode} (an annotation's values as
 * read) and {@link io.wharf.webapp.scan.internal.ScanCache} (one checked file per jar hash). Not exported.
 */
package io.wharf.webapp.scan.internal;
