package io.muster.engine.util;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean …?": the closest candidate by edit distance, when it is close enough to be a typo. */
public final class Suggest {
    private Suggest() {}

    public static Optional<String> closest(String word, Collection<String> candidates) {
        if (word.length() >= 3) { // an abbreviation ("dir") is a prefix of what was meant ("directory")
            var prefixed = candidates.stream().filter(c -> c.toLowerCase(Locale.ROOT).startsWith(word.toLowerCase(Locale.ROOT))).toList();
            if (prefixed.size() == 1) return Optional.of(prefixed.get(0));
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int d = distance(word.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        int allowed = Math.max(2, word.length() / 3);
        return best != null && bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** " (did you mean 'x'?)" or the empty string. */
    public static String hint(String word, Collection<String> candidates) {
        return closest(word, candidates).map(c -> " (did you mean '" + c + "'?)").orElse("");
    }

    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) previous[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
