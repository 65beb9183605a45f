package io.wharf.http2.hpack.internal;

import java.nio.ByteBuffer;

import io.wharf.http2.hpack.HpackException;

/**
 * Decodes HPACK Huffman strings (RFC 7541 section 5.2) with a table-driven state machine
 * that reads four bits at a time.
 *
 * <p>The states are the 256 inner nodes of the code's tree. For each state and each of the 16
 * values of the next four bits, a precomputed transition gives the state reached, the symbol
 * completed on the way (a code has at least 5 bits, so four bits complete at most one), and
 * whether the walk hit EOS. A state is a valid place to stop when it is the root or was reached
 * from it by at most seven 1 bits: that is the only padding RFC 7541 allows, so padding of 8 or
 * more bits, padding with a 0 bit and EOS itself are all refused.
 *
 * <p>Stateless: any thread may call it. It reads the caller's buffer at absolute indexes and
 * writes into the caller's array; it allocates nothing.
 */
public final class HuffmanDecoder {

    /** Transition flag: a symbol was completed; it is in bits 8..15. */
    private static final int EMIT = 1 << 16;
    /** Transition flag: the bits spell EOS or run past the code. */
    private static final int FAIL = 1 << 17;
    /** Transition flag: the state reached is a valid end of the string. */
    private static final int ACCEPT = 1 << 18;

    /** 256 states x 16 four-bit inputs: next state in bits 0..7, then the symbol and flags. */
    private static final int[] TRANSITIONS = buildTransitions();

    private HuffmanDecoder() {
    }

    /**
     * Decodes the {@code length} octets at absolute index {@code offset} of {@code in}, writing
     * at most {@code max} decoded octets into {@code out} from {@code outOffset}; past that it
     * goes on validating and counting without writing.
     *
     * @param out where the decoded octets go; may be null when {@code max} is 0
     * @return the decoded length, which may exceed {@code max} (then only {@code max} octets were written)
     * @throws HpackException (a COMPRESSION_ERROR) for EOS in the string or bad padding
     */
    public static int decode(ByteBuffer in, int offset, int length, byte[] out, int outOffset, int max) {
        int state = 0;
        int transition = ACCEPT;
        int decoded = 0;
        for (int i = offset, end = offset + length; i < end; i++) {
            int octet = in.get(i) & 0xFF;
            for (int shift = 4; shift >= 0; shift -= 4) {
                transition = TRANSITIONS[(state << 4) | ((octet >>> shift) & 0x0F)];
                if ((transition & FAIL) != 0) {
                    throw new HpackException("Huffman string contains EOS");
                }
                if ((transition & EMIT) != 0) {
                    if (decoded < max) {
                        out[outOffset + decoded] = (byte) (transition >>> 8);
                    }
                    decoded++;
                }
                state = transition & 0xFF;
            }
        }
        if ((transition & ACCEPT) == 0) {
            throw new HpackException("Huffman string padding is longer than 7 bits or not all ones");
        }
        return decoded;
    }

    /**
     * Builds the tree of the code, numbers its inner nodes, then walks four bits from every
     * inner node for every input value.
     */
    private static int[] buildTransitions() {
        // Children of inner nodes: a value >= 0 is an inner node, a value < 0 is the leaf of symbol ~value.
        int[][] children = new int[256][2];
        int[] depth = new int[256];
        boolean[] allOnes = new boolean[256];
        int nodes = 1;
        allOnes[0] = true;
        for (int[] pair : children) {
            pair[0] = Integer.MIN_VALUE;
            pair[1] = Integer.MIN_VALUE;
        }
        for (int symbol = 0; symbol <= HuffmanCode.EOS; symbol++) {
            int code = HuffmanCode.code(symbol);
            int node = 0;
            for (int bit = HuffmanCode.length(symbol) - 1; bit >= 0; bit--) {
                int branch = (code >>> bit) & 1;
                if (bit == 0) {
                    children[node][branch] = ~symbol;
                } else {
                    if (children[node][branch] == Integer.MIN_VALUE) {
                        children[node][branch] = nodes;
                        depth[nodes] = depth[node] + 1;
                        allOnes[nodes] = allOnes[node] && branch == 1;
                        nodes++;
                    }
                    node = children[node][branch];
                }
            }
        }
        int[] transitions = new int[256 * 16];
        for (int state = 0; state < nodes; state++) {
            for (int input = 0; input < 16; input++) {
                int node = state;
                int flags = 0;
                int symbol = 0;
                for (int bit = 3; bit >= 0 && (flags & FAIL) == 0; bit--) {
                    int next = children[node][(input >>> bit) & 1];
                    if (next >= 0) {
                        node = next;
                    } else if (~next == HuffmanCode.EOS) {
                        flags |= FAIL;
                    } else {
                        symbol = ~next;
                        flags |= EMIT;
                        node = 0;
                    }
                }
                if (node == 0 || allOnes[node] && depth[node] <= 7) {
                    flags |= ACCEPT;
                }
                transitions[(state << 4) | input] = flags | (symbol << 8) | node;
            }
        }
        return transitions;
    }
}
