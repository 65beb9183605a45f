/** Implementation details of {@code io.wharf.server}; not exported. */
package io.wharf.server.internal;
