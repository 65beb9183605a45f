/**
 * Cookies, not exported: the {@code Set-Cookie} parser and its date and domain rules, and the
 * {@code Cookie} and {@code Set-Cookie} fields of an exchange. Depends on no other internal package.
 */
package io.wharf.client.internal.cookie;
