package io.muster.engine.format.ccm.expr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The part of gjson's path syntax CCM's {@code lookup()} documents: names separated by {@code .} ({@code \.}
 * escapes one), array indexes ({@code items.1}), {@code #} for an array's length, {@code items.#.name} for a field
 * of every element, and {@code *}/{@code ?} wildcards in a name. Queries ({@code #(…)}) and modifiers
 * ({@code @reverse}) are refused by name.
 */
final class GjsonPath {
    /** What a path found: {@code exists} is false when nothing is at the path. */
    record Result(boolean exists, Object value) {
        static final Result MISSING = new Result(false, null);
    }

    private GjsonPath() {}

    static Result get(Object root, String path) {
        List<String> parts = split(path);
        for (String part : parts) {
            if (part.startsWith("#(")) throw new IllegalArgumentException("lookup('" + path + "'): gjson queries (#(…)) are not supported");
            if (part.startsWith("@")) throw new IllegalArgumentException("lookup('" + path + "'): gjson modifiers (" + part + ") are not supported");
        }
        return walk(root, parts, 0);
    }

    private static Result walk(Object current, List<String> parts, int i) {
        if (i == parts.size()) return new Result(true, current);
        String part = parts.get(i);
        if (current instanceof List<?> list) {
            if (part.equals("#")) {
                if (i + 1 == parts.size()) return new Result(true, (long) list.size());
                List<Object> each = new ArrayList<>();
                for (Object item : list) {
                    Result r = walk(item, parts, i + 1);
                    if (r.exists()) each.add(r.value());
                }
                return new Result(true, each);
            }
            if (!part.chars().allMatch(Character::isDigit) || part.isEmpty() || part.length() > 9) return Result.MISSING;
            int index = Integer.parseInt(part);
            return index < list.size() ? walk(list.get(index), parts, i + 1) : Result.MISSING;
        }
        if (current instanceof Map<?, ?> map) {
            if (part.indexOf('*') < 0 && part.indexOf('?') < 0) {
                return map.containsKey(part) ? walk(map.get(part), parts, i + 1) : Result.MISSING;
            }
            // JSON from a Go map lists its keys sorted: the first match in that order
            for (Map.Entry<String, Object> e : new TreeMap<String, Object>(keyed(map)).entrySet()) {
                if (wildcard(part, e.getKey())) return walk(e.getValue(), parts, i + 1);
            }
        }
        return Result.MISSING;
    }

    private static Map<String, Object> keyed(Map<?, ?> map) {
        Map<String, Object> out = new TreeMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    private static boolean wildcard(String pattern, String name) {
        return wildcard(pattern, 0, name, 0);
    }

    private static boolean wildcard(String p, int pi, String s, int si) {
        if (pi == p.length()) return si == s.length();
        char c = p.charAt(pi);
        if (c == '*') {
            for (int k = si; k <= s.length(); k++) if (wildcard(p, pi + 1, s, k)) return true;
            return false;
        }
        if (si == s.length()) return false;
        return (c == '?' || c == s.charAt(si)) && wildcard(p, pi + 1, s, si + 1);
    }

    /** The names of a path; a backslash makes the next character part of the name. */
    private static List<String> split(String path) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\\' && i + 1 < path.length()) {
                part.append(path.charAt(++i));
            } else if (c == '.') {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(c);
            }
        }
        parts.add(part.toString());
        return parts;
    }
}
