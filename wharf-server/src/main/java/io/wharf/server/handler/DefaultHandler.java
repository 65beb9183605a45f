package io.wharf.server.handler;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.internal.ServerWideAnswer;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The last handler of a tree, which takes whatever the others passed on: it answers
 * {@code GET /favicon.ico} (and HEAD) with a small built-in icon, when
 * {@link #setServeFavicon asked to} (the default), so browsers stop asking; a target without
 * a path as the server does ({@code OPTIONS *} with 200 and {@code Allow}, {@code CONNECT}
 * with 405, see {@link io.wharf.server.Server#handle}); and everything else with a 404 page
 * from the server's error handler.
 *
 * <p>NON_BLOCKING: every answer is one write of a small buffer, so the server may call it on
 * the thread that read the request. The icon's bytes are built once and shared read-only;
 * each response writes its own duplicate view of them.
 */
public class DefaultHandler extends Handler.Abstract {

    private static final ByteBuffer FAVICON = favicon();

    private volatile boolean serveFavicon = true;

    public DefaultHandler() {
        super(InvocationType.NON_BLOCKING);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        boolean getOrHead = HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method);
        if (serveFavicon && getOrHead && "/favicon.ico".equals(request.getPathInContext())) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "image/x-icon");
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "max-age=86400");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, FAVICON.remaining());
            response.write(true, HttpMethod.HEAD.is(method) ? null : FAVICON.duplicate(), callback);
            return true;
        }
        ServerWideAnswer.answer(request, response, callback);
        return true;
    }

    /** @return whether {@code /favicon.ico} is answered with the built-in icon (default true) */
    public boolean isServeFavicon() {
        return serveFavicon;
    }

    public void setServeFavicon(boolean serveFavicon) {
        this.serveFavicon = serveFavicon;
    }

    /**
     * @return a 1x1 icon: an ICO header and directory entry, then a 32-bit bitmap (info header,
     *     one pixel, a one-row AND mask padded to 4 bytes), all little-endian; read-only
     */
    private static ByteBuffer favicon() {
        int imageSize = 40 + 4 + 4;
        ByteBuffer icon = ByteBuffer.allocate(6 + 16 + imageSize).order(ByteOrder.LITTLE_ENDIAN);
        // ICONDIR: reserved, type 1 (icon), one image.
        icon.putShort((short) 0).putShort((short) 1).putShort((short) 1);
        // ICONDIRENTRY: 1x1, no palette, reserved, 1 plane, 32 bits, size, offset.
        icon.put((byte) 1).put((byte) 1).put((byte) 0).put((byte) 0)
                .putShort((short) 1).putShort((short) 32).putInt(imageSize).putInt(6 + 16);
        // BITMAPINFOHEADER: height doubled for the AND mask, 1 plane, 32 bits, no compression.
        icon.putInt(40).putInt(1).putInt(2).putShort((short) 1).putShort((short) 32)
                .putInt(0).putInt(8).putInt(0).putInt(0).putInt(0).putInt(0);
        // One opaque pixel, blue-green-red-alpha: a harbour blue.
        icon.put((byte) 0xA0).put((byte) 0x60).put((byte) 0x20).put((byte) 0xFF);
        // AND mask: one row, all visible, padded to 32 bits.
        icon.putInt(0);
        return icon.flip().asReadOnlyBuffer();
    }
}
