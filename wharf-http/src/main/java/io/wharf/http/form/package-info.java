/**
 * Request body formats: {@code application/x-www-form-urlencoded} and
 * {@code multipart/form-data}, parsed incrementally from buffers with limits on keys, sizes
 * and parts, large parts spooled to disk.
 */
package io.wharf.http.form;
