package io.wharf.webapp.descriptor;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Puts an application's fragments in the order Servlet 6.1 section 8.2.2 asks for. The deployer
 * calls it once, on its thread, with the fragments in the order it found their jars; a jar
 * without a web-fragment.xml takes part as a fragment with no name and no ordering.
 *
 * <p><b>Absolute ordering</b> (web.xml's {@code <absolute-ordering>}): the named fragments in
 * the order named, names of no fragment skipped; the fragments not named stand where
 * {@code <others/>} is, in the order found, or are left out of the application when there is no
 * {@code <others/>}. The fragments' own orderings are then ignored.
 *
 * <p><b>Relative ordering</b> (each fragment's {@code <ordering>}): a fragment comes before the
 * fragments its {@code <before>} names and after those its {@code <after>} names, directly or
 * through others. A fragment with {@code <before><others/></before>} comes before every fragment
 * it is not so related to that does not also say before-others, and likewise for after-others;
 * among fragments nothing orders, the order found is kept. Orderings that contradict one another
 * are an error that names the fragments involved, as are two fragments with one name.
 */
public final class FragmentOrdering {

    private FragmentOrdering() {
    }

    /**
     * @param webXml the application's web.xml, whose absolute ordering, if any, decides
     * @param fragments the fragments in the order found
     * @return the fragments in order, without those an absolute ordering leaves out
     */
    public static List<WebDescriptor> order(WebDescriptor webXml, List<WebDescriptor> fragments) {
        return webXml.absoluteOrdering()
            .map(absolute -> absolute(absolute, fragments))
            .orElseGet(() -> relative(fragments));
    }

    /** @return the fragments in the order of {@code ordering}; see the class comment */
    public static List<WebDescriptor> absolute(AbsoluteOrdering ordering, List<WebDescriptor> fragments) {
        Map<String, Integer> byName = byName(fragments);
        List<WebDescriptor> others = fragments.stream()
            .filter(fragment -> fragment.fragmentName().map(name -> !ordering.names().contains(name)).orElse(true))
            .toList();
        List<WebDescriptor> ordered = new ArrayList<>();
        for (int i = 0; i <= ordering.names().size(); i++) {
            if (ordering.othersPosition().orElse(-1) == i) {
                ordered.addAll(others);
            }
            if (i < ordering.names().size() && byName.containsKey(ordering.names().get(i))) {
                ordered.add(fragments.get(byName.get(ordering.names().get(i))));
            }
        }
        return List.copyOf(ordered);
    }

    /** @return the fragments in the order their relative orderings give; see the class comment */
    public static List<WebDescriptor> relative(List<WebDescriptor> fragments) {
        Map<String, Integer> byName = byName(fragments);
        int count = fragments.size();
        List<BitSet> explicit = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            explicit.add(new BitSet(count));
        }
        for (int i = 0; i < count; i++) {
            RelativeOrdering ordering = fragments.get(i).ordering();
            for (String name : ordering.before()) {
                Integer later = byName.get(name);
                if (later != null) {
                    explicit.get(i).set(later);
                }
            }
            for (String name : ordering.after()) {
                Integer earlier = byName.get(name);
                if (earlier != null) {
                    explicit.get(earlier).set(i);
                }
            }
        }
        List<BitSet> reach = reachability(explicit);
        List<BitSet> edges = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            BitSet out = (BitSet) explicit.get(i).clone();
            for (int j = 0; j < count; j++) {
                boolean related = i == j || reach.get(i).get(j) || reach.get(j).get(i);
                if (!related && rank(fragments.get(i)) < rank(fragments.get(j))) {
                    out.set(j);
                }
            }
            edges.add(out);
        }
        return sort(fragments, edges);
    }

    /** @return 0 for a fragment before the others, 2 after them, 1 otherwise */
    private static int rank(WebDescriptor fragment) {
        RelativeOrdering ordering = fragment.ordering();
        return ordering.beforeOthers() ? 0 : ordering.afterOthers() ? 2 : 1;
    }

    /** @return the index of each named fragment; throws when two share a name */
    private static Map<String, Integer> byName(List<WebDescriptor> fragments) {
        Map<String, Integer> byName = new HashMap<>();
        for (int i = 0; i < fragments.size(); i++) {
            WebDescriptor fragment = fragments.get(i);
            if (fragment.fragmentName().isPresent()) {
                String name = fragment.fragmentName().get();
                Integer other = byName.putIfAbsent(name, i);
                if (other != null) {
                    throw new DescriptorException("two fragments are named '" + name + "': "
                        + fragments.get(other).source() + " and " + fragment.source());
                }
            }
        }
        return byName;
    }

    /** @return for each node, the nodes it reaches through one or more edges */
    private static List<BitSet> reachability(List<BitSet> edges) {
        List<BitSet> reach = new ArrayList<>();
        for (int start = 0; start < edges.size(); start++) {
            BitSet seen = new BitSet(edges.size());
            List<Integer> pending = new ArrayList<>(List.of(start));
            while (!pending.isEmpty()) {
                int node = pending.removeLast();
                for (int next = edges.get(node).nextSetBit(0); next >= 0; next = edges.get(node).nextSetBit(next + 1)) {
                    if (!seen.get(next)) {
                        seen.set(next);
                        pending.add(next);
                    }
                }
            }
            reach.add(seen);
        }
        return reach;
    }

    /** A topological sort that, of the fragments free to go next, takes the one found first. */
    private static List<WebDescriptor> sort(List<WebDescriptor> fragments, List<BitSet> edges) {
        int count = fragments.size();
        int[] incoming = new int[count];
        for (BitSet out : edges) {
            out.stream().forEach(target -> incoming[target]++);
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int i = 0; i < count; i++) {
            if (incoming[i] == 0) {
                ready.add(i);
            }
        }
        List<WebDescriptor> ordered = new ArrayList<>();
        BitSet placed = new BitSet(count);
        while (!ready.isEmpty()) {
            int next = ready.poll();
            ordered.add(fragments.get(next));
            placed.set(next);
            edges.get(next).stream().forEach(target -> {
                if (--incoming[target] == 0) {
                    ready.add(target);
                }
            });
        }
        if (ordered.size() < count) {
            List<String> stuck = new ArrayList<>();
            for (int i = placed.nextClearBit(0); i < count; i = placed.nextClearBit(i + 1)) {
                stuck.add(describe(fragments.get(i)));
            }
            throw new DescriptorException("the fragments' <ordering>s contradict one another (a cycle among "
                + String.join(", ", stuck) + ")");
        }
        return List.copyOf(ordered);
    }

    /** @return "'A' (its source)" for a named fragment, its source alone otherwise */
    static String describe(WebDescriptor fragment) {
        return fragment.fragmentName().map(name -> "'" + name + "' (" + fragment.source() + ")").orElse(fragment.source());
    }
}
