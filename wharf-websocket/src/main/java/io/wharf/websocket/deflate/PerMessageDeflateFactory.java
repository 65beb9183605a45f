package io.wharf.websocket.deflate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.websocket.core.Extension;
import io.wharf.websocket.core.ExtensionConfig;
import io.wharf.websocket.core.ExtensionFactory;

/**
 * Negotiates permessage-deflate (RFC 7692) for a server handler or a client and makes the
 * {@link PerMessageDeflate} of each session; holds the pools of inflaters and deflaters its
 * sessions share. Any thread: handshakes run concurrently.
 *
 * <p><b>Window sizes.</b> The JDK's {@link Deflater} and {@link Inflater} know only 15-bit
 * windows. An inflater with a 15-bit window reads any smaller window, so whatever window the
 * peer compresses with is fine. For our own side: when the peer limits our window below 15
 * bits ({@code server_max_window_bits=N} in a client's offer, {@code client_max_window_bits=N}
 * in a server's answer), we accept and compress those sessions Huffman-only (no back-references,
 * so valid under any window; a lower ratio). Values outside 8..15, parameters given twice or
 * with a wrong value, and unknown parameters make a server decline that offer (it tries the
 * client's next one) and a client fail the handshake.
 *
 * <p><b>As a server</b> it accepts {@code server_no_context_takeover} (and always sends it when
 * built with {@code noContextTakeover}), answers a client's {@code client_no_context_takeover}
 * hint by asking for it (then our inflater goes back to the pool between messages), echoes
 * {@code server_max_window_bits}, and ignores {@code client_max_window_bits} (our inflater
 * takes any window). <b>As a client</b> it offers {@code client_max_window_bits} (any value the
 * server picks is honoured as above) and, with {@code noContextTakeover}, the
 * {@code client_no_context_takeover} promise.
 */
public final class PerMessageDeflateFactory implements ExtensionFactory {

    public static final String NAME = "permessage-deflate";

    private static final String SERVER_NO_CONTEXT_TAKEOVER = "server_no_context_takeover";
    private static final String CLIENT_NO_CONTEXT_TAKEOVER = "client_no_context_takeover";
    private static final String SERVER_MAX_WINDOW_BITS = "server_max_window_bits";
    private static final String CLIENT_MAX_WINDOW_BITS = "client_max_window_bits";

    private final boolean noContextTakeover;
    private final CodecPool<Inflater> inflaters;
    private final CodecPool<Deflater> deflaters;
    private final CodecPool<Deflater> huffmanDeflaters;

    /** The default compression level, context takeover allowed, up to 64 pooled codecs of each kind. */
    public PerMessageDeflateFactory() {
        this(Deflater.DEFAULT_COMPRESSION, false, 64);
    }

    /**
     * @param level the {@link Deflater} level, -1 (default) or 0 to 9
     * @param noContextTakeover whether our side resets its compressor after every message (less
     *     memory held by idle sessions, a lower ratio on small similar messages)
     * @param maxPooled the most inflaters, and deflaters, kept for reuse
     */
    public PerMessageDeflateFactory(int level, boolean noContextTakeover, int maxPooled) {
        if (level < -1 || level > 9) {
            throw new IllegalArgumentException("deflate level " + level + " is not -1 or 0 to 9");
        }
        this.noContextTakeover = noContextTakeover;
        this.inflaters = new CodecPool<>(maxPooled, () -> new Inflater(true), Inflater::reset, Inflater::end);
        this.deflaters = new CodecPool<>(maxPooled, () -> new Deflater(level, true), Deflater::reset, Deflater::end);
        this.huffmanDeflaters = new CodecPool<>(maxPooled, () -> huffmanOnly(level), Deflater::reset, Deflater::end);
    }

    /** A deflater without back-references, its strategy applied now so that no deflate call of a session is spent on it. */
    private static Deflater huffmanOnly(int level) {
        Deflater deflater = new Deflater(level, true);
        deflater.setStrategy(Deflater.HUFFMAN_ONLY);
        deflater.deflate(new byte[0], 0, 0, Deflater.NO_FLUSH);
        return deflater;
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The negotiated parameters, as read from an offer or an answer. */
    private static final class Parameters {
        boolean serverNoContextTakeover;
        boolean clientNoContextTakeover;
        int serverMaxWindowBits;
        int clientMaxWindowBits;
        boolean clientMaxWindowBitsNamed;

        /** @throws IllegalArgumentException for a parameter unknown, repeated or with a bad value */
        static Parameters of(ExtensionConfig config, boolean offer) {
            Parameters parameters = new Parameters();
            Set<String> seen = new HashSet<>();
            for (ExtensionConfig.Parameter parameter : config.parameters()) {
                if (!seen.add(parameter.name())) {
                    throw new IllegalArgumentException(parameter.name() + " given twice");
                }
                switch (parameter.name()) {
                    case SERVER_NO_CONTEXT_TAKEOVER -> parameters.serverNoContextTakeover = flag(parameter);
                    case CLIENT_NO_CONTEXT_TAKEOVER -> parameters.clientNoContextTakeover = flag(parameter);
                    case SERVER_MAX_WINDOW_BITS -> parameters.serverMaxWindowBits = windowBits(parameter, false);
                    case CLIENT_MAX_WINDOW_BITS -> {
                        // Only an offer may name it without a value (RFC 7692 section 7.1.2.2).
                        parameters.clientMaxWindowBits = windowBits(parameter, offer);
                        parameters.clientMaxWindowBitsNamed = true;
                    }
                    default -> throw new IllegalArgumentException("unknown parameter " + parameter.name());
                }
            }
            return parameters;
        }

        private static boolean flag(ExtensionConfig.Parameter parameter) {
            if (parameter.value() != null) {
                throw new IllegalArgumentException(parameter.name() + " takes no value");
            }
            return true;
        }

        /** @return the bits, 8 to 15, or 0 when the parameter may and does come without a value */
        private static int windowBits(ExtensionConfig.Parameter parameter, boolean valueOptional) {
            String value = parameter.value();
            if (value == null && valueOptional) {
                return 0;
            }
            if (value == null || !value.matches("[1-9][0-9]?") || Integer.parseInt(value) < 8 || Integer.parseInt(value) > 15) {
                throw new IllegalArgumentException(parameter.name() + " must be 8 to 15, not " + value);
            }
            return Integer.parseInt(value);
        }
    }

    @Override
    public Extension acceptOffer(ExtensionConfig offer, ByteBufferPool buffers) {
        Parameters offered;
        try {
            offered = Parameters.of(offer, true);
        } catch (IllegalArgumentException x) {
            return null;
        }
        boolean serverNoContextTakeover = offered.serverNoContextTakeover || noContextTakeover;
        List<ExtensionConfig.Parameter> answer = new ArrayList<>();
        if (serverNoContextTakeover) {
            answer.add(new ExtensionConfig.Parameter(SERVER_NO_CONTEXT_TAKEOVER, null));
        }
        if (offered.clientNoContextTakeover) {
            answer.add(new ExtensionConfig.Parameter(CLIENT_NO_CONTEXT_TAKEOVER, null));
        }
        if (offered.serverMaxWindowBits != 0) {
            answer.add(new ExtensionConfig.Parameter(SERVER_MAX_WINDOW_BITS, Integer.toString(offered.serverMaxWindowBits)));
        }
        return new PerMessageDeflate(new ExtensionConfig(NAME, answer), buffers, inflaters,
            deflatersFor(offered.serverMaxWindowBits), offered.clientNoContextTakeover, serverNoContextTakeover);
    }

    @Override
    public List<ExtensionConfig> offers() {
        List<ExtensionConfig.Parameter> offer = new ArrayList<>();
        if (noContextTakeover) {
            offer.add(new ExtensionConfig.Parameter(CLIENT_NO_CONTEXT_TAKEOVER, null));
        }
        offer.add(new ExtensionConfig.Parameter(CLIENT_MAX_WINDOW_BITS, null));
        return List.of(new ExtensionConfig(NAME, offer));
    }

    @Override
    public Extension acceptResponse(ExtensionConfig response, ByteBufferPool buffers) {
        Parameters answer;
        try {
            answer = Parameters.of(response, false);
        } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException("unacceptable " + NAME + " answer \"" + response + "\": " + x.getMessage(), x);
        }
        return new PerMessageDeflate(response, buffers, inflaters, deflatersFor(answer.clientMaxWindowBits),
            answer.serverNoContextTakeover, answer.clientNoContextTakeover || noContextTakeover);
    }

    /** @return the deflaters that honour a window of {@code bits} (0: not limited) */
    private CodecPool<Deflater> deflatersFor(int bits) {
        return bits != 0 && bits < 15 ? huffmanDeflaters : deflaters;
    }

    /** @return how many pooled codecs sessions hold now: both zero once every session ended */
    int lentCodecs() {
        return inflaters.lent() + deflaters.lent() + huffmanDeflaters.lent();
    }

    @Override
    public String toString() {
        return "PerMessageDeflateFactory[noContextTakeover=" + noContextTakeover + "]";
    }
}
