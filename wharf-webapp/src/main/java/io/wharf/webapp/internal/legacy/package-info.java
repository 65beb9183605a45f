/**
 * The legacy javax mode: a javax.servlet application converted to Jakarta at deployment with the
 * Eclipse Transformer, into a cache keyed by the source's content. Only
 * {@link io.wharf.webapp.internal.legacy.EclipseTransformer} touches the Transformer's classes,
 * which are optional: the others only check that they are there.
 */
package io.wharf.webapp.internal.legacy;
