/**
 * What a transport reads of its client: {@link io.wharf.client.transport.ClientSettings}, the
 * immutable snapshot of the client's settings. The interfaces a transport implements are still
 * internal ({@code io.wharf.client.internal.Transport}); they are meant to move here.
 */
package io.wharf.client.transport;
