package io.wharf.util.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.BiFunction;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.wharf.util.Index;

/**
 * Random key sets against a reference model: a {@link HashMap} of folded keys for exact
 * lookups and a brute-force scan from the longest prefix down for best lookups. Every
 * lookup goes through every entry point ({@link IndexLookups}). The bounded ternary trie is
 * also driven by random puts and removes, its refusals predicted by counting the distinct
 * prefixes it must hold. Rounds are seeded by their number, named in every failure.
 */
class IndexPropertyTest {

    private static final int ROUNDS = 1_000;
    /** Few characters, so keys share prefixes and differ by case; tab, ':', space and obs-text included. */
    private static final String ALPHABET = "aAbBcC:- \t\u00e9\u00c9[{";

    @ParameterizedTest(name = "caseSensitive={0}")
    @ValueSource(booleans = {false, true})
    void staticStructuresAgreeWithTheModel(boolean caseSensitive) {
        Map<String, BiFunction<Boolean, Map<String, Integer>, Index<Integer>>> structures = new LinkedHashMap<>();
        structures.put("ArrayTrie", (sensitive, entries) -> ArrayTrie.of(TreeTrie.of(sensitive, entries)));
        structures.put("TreeTrie", TreeTrie::of);
        structures.put("TernaryTrie", (sensitive, entries) -> TernaryTrie.of(sensitive, TernaryTrie.MAX_CAPACITY, entries));
        for (int round = 0; round < ROUNDS; round++) {
            Random random = new Random(round);
            Map<String, Integer> entries = new LinkedHashMap<>();
            int keys = random.nextInt(40);
            for (int i = 0; i < keys; i++) {
                String key = randomString(random, 8);
                entries.remove(key);
                entries.put(key, i);
            }
            Model model = new Model(caseSensitive);
            entries.forEach(model::put);
            List<String> probes = probes(random, entries.keySet());
            for (var structure : structures.entrySet()) {
                Index<Integer> index = structure.getValue().apply(caseSensitive, entries);
                String where = structure.getKey() + " round " + round + " keys " + entries.keySet();
                assertEquals(model.size(), index.size(), where);
                assertEquals(model.keys(), index.keySet(), where);
                for (String probe : probes) {
                    assertEquals(model.get(probe), IndexLookups.get(index, probe), () -> where + " get " + KeyAlphabet.quote(probe));
                    assertEquals(model.getBest(probe), IndexLookups.getBest(index, probe),
                        () -> where + " getBest " + KeyAlphabet.quote(probe));
                }
            }
        }
    }

    @ParameterizedTest(name = "caseSensitive={0}")
    @ValueSource(booleans = {false, true})
    void boundedTrieUnderPutsAndRemovesAgreesWithTheModel(boolean caseSensitive) {
        for (int round = 0; round < ROUNDS; round++) {
            Random random = new Random(-round - 1);
            int capacity = 1 + random.nextInt(60);
            TernaryTrie<Integer> trie = new TernaryTrie<>(caseSensitive, capacity);
            Model model = new Model(caseSensitive);
            Set<String> paths = new HashSet<>();
            List<String> seen = new ArrayList<>();
            int operations = random.nextInt(80);
            for (int operation = 0; operation < operations; operation++) {
                String where = "round " + round + " operation " + operation + " capacity " + capacity;
                int choice = random.nextInt(10);
                if (choice < 6 || seen.isEmpty()) {
                    String key = randomString(random, 10);
                    seen.add(key);
                    Set<String> newPaths = prefixes(key, caseSensitive);
                    newPaths.removeAll(paths);
                    boolean fits = paths.size() + newPaths.size() <= capacity;
                    assertEquals(fits, trie.put(key, operation), () -> where + " put " + KeyAlphabet.quote(key));
                    if (fits) {
                        paths.addAll(newPaths);
                        model.put(key, operation);
                    }
                } else if (choice < 9) {
                    String key = vary(random, seen.get(random.nextInt(seen.size())));
                    assertEquals(model.remove(key), trie.remove(key), () -> where + " remove " + KeyAlphabet.quote(key));
                } else {
                    trie.clear();
                    model.clear();
                    paths.clear();
                }
                assertEquals(paths.size(), trie.nodes(), where);
                assertEquals(model.size(), trie.size(), where);
            }
            assertEquals(model.keys(), trie.keySet(), "round " + round);
            for (String probe : probes(random, new HashSet<>(seen))) {
                String where = "round " + round + " capacity " + capacity + " probe " + KeyAlphabet.quote(probe);
                assertEquals(model.get(probe), IndexLookups.get(trie, probe), where);
                assertEquals(model.getBest(probe), IndexLookups.getBest(trie, probe), where);
            }
        }
    }

    private static String randomString(Random random, int maxLength) {
        int length = random.nextInt(maxLength + 1);
        StringBuilder string = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            // Mostly the small alphabet; now and then any legal octet.
            string.append(random.nextInt(8) == 0 ? legalOctet(random) : ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return string.toString();
    }

    private static char legalOctet(Random random) {
        while (true) {
            char c = (char) random.nextInt(KeyAlphabet.OCTETS);
            if (KeyAlphabet.isLegal(c)) {
                return c;
            }
        }
    }

    /** @return the keys, their case variants, prefixes and extensions, and random strings */
    private static List<String> probes(Random random, Set<String> keys) {
        List<String> probes = new ArrayList<>();
        probes.add("");
        for (String key : keys) {
            probes.add(key);
            probes.add(vary(random, key));
            probes.add(key.substring(0, random.nextInt(key.length() + 1)));
            probes.add(key + randomString(random, 4));
            probes.add(key + "\r\n");
            probes.add(key + "\u0120");
        }
        for (int i = 0; i < 20; i++) {
            probes.add(randomString(random, 12));
        }
        return probes;
    }

    /** @return {@code key} with the case of some letters swapped, or one character replaced */
    private static String vary(Random random, String key) {
        if (key.isEmpty()) {
            return key;
        }
        char[] chars = key.toCharArray();
        int at = random.nextInt(chars.length);
        if (random.nextBoolean()) {
            for (int i = 0; i < chars.length; i++) {
                if (random.nextBoolean() && Character.isLetter(chars[i])) {
                    chars[i] = Character.isUpperCase(chars[i]) ? Character.toLowerCase(chars[i]) : Character.toUpperCase(chars[i]);
                }
            }
        } else {
            chars[at] = random.nextInt(20) == 0 ? '\u20ac' : ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(chars);
    }

    private static Set<String> prefixes(String key, boolean caseSensitive) {
        Set<String> prefixes = new HashSet<>();
        String folded = Model.fold(key, caseSensitive);
        for (int length = 1; length <= folded.length(); length++) {
            prefixes.add(folded.substring(0, length));
        }
        return prefixes;
    }

    /** The reference: a map by folded key, remembering each key's last spelling. */
    private static final class Model {

        private final boolean caseSensitive;
        private final Map<String, Integer> values = new HashMap<>();
        private final Map<String, String> spellings = new HashMap<>();

        Model(boolean caseSensitive) {
            this.caseSensitive = caseSensitive;
        }

        /** ASCII letters only: {@code Character.toLowerCase} would also fold 'É'. */
        static String fold(String key, boolean caseSensitive) {
            if (caseSensitive) {
                return key;
            }
            StringBuilder folded = new StringBuilder(key.length());
            for (char c : key.toCharArray()) {
                folded.append(c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
            }
            return folded.toString();
        }

        void put(String key, Integer value) {
            values.put(fold(key, caseSensitive), value);
            spellings.put(fold(key, caseSensitive), key);
        }

        Integer remove(String key) {
            spellings.remove(fold(key, caseSensitive));
            return values.remove(fold(key, caseSensitive));
        }

        void clear() {
            values.clear();
            spellings.clear();
        }

        Integer get(String key) {
            return values.get(fold(key, caseSensitive));
        }

        Integer getBest(String input) {
            for (int length = input.length(); length >= 0; length--) {
                Integer value = get(input.substring(0, length));
                if (value != null) {
                    return value;
                }
            }
            return null;
        }

        int size() {
            return values.size();
        }

        Set<String> keys() {
            return new HashSet<>(spellings.values());
        }
    }
}
