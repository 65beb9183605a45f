/**
 * Sending a page's sub-resources ahead of it: {@link io.wharf.server.handler.push.PushHandler}
 * pushes them to an HTTP/2 client that accepts server push and announces them in a
 * {@code 103 Early Hints} to the others, as its {@link io.wharf.server.handler.push.PushStrategy}
 * expects the page to need them; {@link io.wharf.server.handler.push.ReferrerPushStrategy}
 * learns that from the {@code Referer} of the requests that follow a page.
 */
package io.wharf.server.handler.push;
