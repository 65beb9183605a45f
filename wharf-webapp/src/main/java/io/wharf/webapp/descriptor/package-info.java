/**
 * A web application's deployment descriptors as an immutable model: {@link
 * io.wharf.webapp.descriptor.DescriptorParser} reads a web.xml or web-fragment.xml into a {@link
 * io.wharf.webapp.descriptor.WebDescriptor}, {@link io.wharf.webapp.descriptor.FragmentOrdering}
 * puts fragments in the order of Servlet 6.1 section 8.2.2 and {@link
 * io.wharf.webapp.descriptor.DescriptorMerger} assembles the effective descriptor of section
 * 8.2.3. Every type here is immutable and safe to share between threads; absent values are
 * {@link java.util.Optional}s and no collection holds a null.
 */
package io.wharf.webapp.descriptor;
