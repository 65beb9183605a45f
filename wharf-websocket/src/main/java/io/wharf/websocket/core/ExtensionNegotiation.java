package io.wharf.websocket.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.wharf.util.buffer.ByteBufferPool;

/**
 * The extension part of the opening handshake, for both roles: the server walks the client's
 * offers in order and keeps the first acceptable one of each extension; the client checks
 * that the server's answer names only extensions it offered, each once. Extensions whose
 * reserved bits overlap cannot both be agreed. Stateless; any thread.
 */
public final class ExtensionNegotiation {

    private ExtensionNegotiation() {
    }

    /**
     * The server's side.
     *
     * @param offers the client's {@code Sec-WebSocket-Extensions}, parsed
     * @return the extensions agreed, in the client's order (empty when none)
     */
    public static List<Extension> acceptOffers(List<ExtensionFactory> factories, List<ExtensionConfig> offers, ByteBufferPool buffers) {
        List<Extension> agreed = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int rsv = 0;
        for (ExtensionConfig offer : offers) {
            ExtensionFactory factory = factoryOf(factories, offer.name());
            if (factory == null || names.contains(offer.name())) {
                continue;
            }
            Extension extension = factory.acceptOffer(offer, buffers);
            if (extension == null) {
                continue;
            }
            if ((extension.rsv() & rsv) != 0) {
                extension.closeIncoming();
                extension.closeOutgoing();
                continue;
            }
            rsv |= extension.rsv();
            names.add(offer.name());
            agreed.add(extension);
        }
        return agreed;
    }

    /** The client's side: @return the offers of every factory, in order */
    public static List<ExtensionConfig> offers(List<ExtensionFactory> factories) {
        List<ExtensionConfig> offers = new ArrayList<>();
        for (ExtensionFactory factory : factories) {
            offers.addAll(factory.offers());
        }
        return offers;
    }

    /**
     * The client's side.
     *
     * @param response the server's {@code Sec-WebSocket-Extensions}, parsed
     * @return the extensions agreed, in the server's order
     * @throws IllegalArgumentException naming the first thing wrong with the answer; the
     *     extensions agreed up to then are closed
     */
    public static List<Extension> acceptResponse(List<ExtensionFactory> factories, List<ExtensionConfig> response, ByteBufferPool buffers) {
        List<Extension> agreed = new ArrayList<>();
        try {
            Set<String> names = new HashSet<>();
            int rsv = 0;
            for (ExtensionConfig answer : response) {
                ExtensionFactory factory = factoryOf(factories, answer.name());
                if (factory == null) {
                    throw new IllegalArgumentException("the server agreed to extension " + answer.name() + ", which was not offered");
                }
                if (!names.add(answer.name())) {
                    throw new IllegalArgumentException("the server agreed to extension " + answer.name() + " twice");
                }
                Extension extension = factory.acceptResponse(answer, buffers);
                agreed.add(extension);
                if ((extension.rsv() & rsv) != 0) {
                    throw new IllegalArgumentException("extension " + answer.name() + " uses reserved bits another one uses");
                }
                rsv |= extension.rsv();
            }
            return agreed;
        } catch (RuntimeException x) {
            close(agreed);
            throw x;
        }
    }

    /**
     * Adds {@code factory} to a server's or client's list of factories.
     *
     * @throws IllegalArgumentException when the list has a factory of that name already
     */
    public static void add(List<ExtensionFactory> factories, ExtensionFactory factory) {
        synchronized (factories) {
            if (factoryOf(factories, factory.name()) != null) {
                throw new IllegalArgumentException("extension " + factory.name() + " was already added");
            }
            factories.add(factory);
        }
    }

    /** Closes both halves of every extension: for extensions agreed but never given to a connection. */
    public static void close(List<Extension> extensions) {
        for (Extension extension : extensions) {
            extension.closeIncoming();
            extension.closeOutgoing();
        }
    }

    /** @return the reserved bits the extensions use together */
    static int rsvOf(List<Extension> extensions) {
        int rsv = 0;
        for (Extension extension : extensions) {
            rsv |= extension.rsv();
        }
        return rsv;
    }

    private static ExtensionFactory factoryOf(List<ExtensionFactory> factories, String name) {
        for (ExtensionFactory factory : factories) {
            if (factory.name().equals(name)) {
                return factory;
            }
        }
        return null;
    }
}
