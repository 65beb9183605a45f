/**
 * How descriptors are read: a bounded StAX read into a small element tree ({@link
 * io.wharf.webapp.descriptor.internal.XmlTreeReader}, {@link
 * io.wharf.webapp.descriptor.internal.XmlElement}) and the readers that turn its elements into the
 * model's records. Not exported.
 */
package io.wharf.webapp.descriptor.internal;
