/** Implementation details of {@code io.wharf.http}; not exported. */
package io.wharf.http.internal;
