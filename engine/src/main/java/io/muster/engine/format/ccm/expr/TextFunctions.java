package io.muster.engine.format.ccm.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** expr-lang's string builtins, with Go's {@code strings} semantics. */
final class TextFunctions {
    static final Set<String> NAMES = Set.of("trim", "trimPrefix", "trimSuffix", "upper", "lower", "split", "splitAfter", "replace",
            "repeat", "indexOf", "lastIndexOf", "hasPrefix", "hasSuffix");

    private TextFunctions() {}

    static Object call(String name, Args args) {
        return switch (name) {
            case "trim" -> args.count(1, 2).size() == 1 ? args.string(0).strip() : trim(args.string(0), args.string(1));
            case "trimPrefix" -> {
                String prefix = args.count(1, 2).size() == 1 ? " " : args.string(1);
                String s = args.string(0);
                yield s.startsWith(prefix) ? s.substring(prefix.length()) : s;
            }
            case "trimSuffix" -> {
                String suffix = args.count(1, 2).size() == 1 ? " " : args.string(1);
                String s = args.string(0);
                yield s.endsWith(suffix) ? s.substring(0, s.length() - suffix.length()) : s;
            }
            case "upper" -> args.count(1, 1).string(0).toUpperCase(java.util.Locale.ROOT);
            case "lower" -> args.count(1, 1).string(0).toLowerCase(java.util.Locale.ROOT);
            case "split" -> split(args.count(2, 3), false);
            case "splitAfter" -> split(args.count(2, 3), true);
            case "replace" -> args.count(3, 3).string(0).replace(args.string(1), args.string(2));
            case "repeat" -> {
                long n = args.count(2, 2).integer(1);
                if (n < 0) throw args.error("negative repeat count " + n);
                if (n * args.string(0).length() > 16 << 20) throw args.error("the result would be over 16 MiB");
                yield args.string(0).repeat((int) n);
            }
            case "indexOf" -> (long) args.count(2, 2).string(0).indexOf(args.string(1));
            case "lastIndexOf" -> (long) args.count(2, 2).string(0).lastIndexOf(args.string(1));
            case "hasPrefix" -> args.count(2, 2).string(0).startsWith(args.string(1));
            case "hasSuffix" -> args.count(2, 2).string(0).endsWith(args.string(1));
            default -> throw args.error("unknown function");
        };
    }

    /** Go's {@code strings.Trim}: every leading and trailing character that is in {@code cutset}. */
    private static String trim(String s, String cutset) {
        int start = 0;
        int end = s.length();
        while (start < end && cutset.indexOf(s.charAt(start)) >= 0) start++;
        while (end > start && cutset.indexOf(s.charAt(end - 1)) >= 0) end--;
        return s.substring(start, end);
    }

    /** Go's {@code strings.SplitN} ({@code SplitAfterN} when {@code after}); no count means all. */
    private static Object split(Args args, boolean after) {
        String s = args.string(0);
        String sep = args.string(1);
        long n = args.size() == 3 ? args.integer(2) : -1;
        List<Object> out = new ArrayList<>();
        if (n == 0) return List.of();
        if (sep.isEmpty()) {
            int[] runes = s.codePoints().toArray();
            for (int i = 0; i < runes.length; i++) {
                if (n > 0 && out.size() == n - 1) {
                    out.add(new String(runes, i, runes.length - i));
                    return List.copyOf(out);
                }
                out.add(new String(runes, i, 1));
            }
            return List.copyOf(out);
        }
        int from = 0;
        while (n < 0 || out.size() < n - 1) {
            int at = s.indexOf(sep, from);
            if (at < 0) break;
            out.add(s.substring(from, after ? at + sep.length() : at));
            from = at + sep.length();
        }
        out.add(s.substring(from));
        return List.copyOf(out);
    }
}
