package io.muster.engine.health.goss;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a goss attribute must be: a plain value (equal to it; a list: the same elements in any order) or one of goss's
 * matchers, written as a map of one key ({@code {lt: 10}}, {@code {not: {contain-element: x}}}). Built from the rules
 * as written, so a matcher goss does not know is refused when the manifest is read; judged against what the system
 * has when the check runs.
 */
sealed interface Matcher {
    /** goss's matcher names, as its docs list them. */
    List<String> NAMES = List.of("equal", "lt", "le", "gt", "ge", "have-prefix", "have-suffix", "contain-substring",
            "match-regexp", "have-len", "contain-element", "contain-elements", "consist-of", "have-key-with-value", "not", "and", "or");

    /** Null when {@code actual} satisfies it, else why not: {@code expected "0644", got "0600"}. */
    String mismatch(Object actual);

    /** As the rules say it, for messages. */
    String describe();

    /** Why {@code actual} does not match: the matcher and the value, as every mismatch says them. */
    default String notMatching(Object actual) {
        return "expected " + describe() + ", got " + quote(actual);
    }

    static Matcher of(Object spec, String where) {
        if (spec instanceof Map<?, ?> map && map.size() == 1 && map.keySet().iterator().next() instanceof String name
                && NAMES.contains(name)) {
            return named(name, map.values().iterator().next(), where + ": " + name);
        }
        if (spec instanceof Map<?, ?> map && map.size() == 1) {
            throw new IllegalArgumentException(where + ": unknown matcher '" + map.keySet().iterator().next() + "'; goss's matchers are "
                    + String.join(", ", NAMES));
        }
        return new Equal(spec);
    }

    private static Matcher named(String name, Object argument, String where) {
        return switch (name) {
            case "equal" -> new Equal(argument);
            case "lt", "le", "gt", "ge" -> new Compare(name, number(argument, where));
            case "have-prefix", "have-suffix", "contain-substring" -> new Text(name, text(argument, where));
            case "match-regexp" -> new Regexp(regexp(text(argument, where), where));
            case "have-len" -> new Length(number(argument, where).intValueExact());
            case "contain-element" -> new Element(of(argument, where));
            case "contain-elements", "consist-of" -> {
                if (!(argument instanceof List<?> items)) throw new IllegalArgumentException(where + ": expected a list, got " + argument);
                List<Matcher> each = new ArrayList<>();
                for (Object item : items) each.add(of(item, where));
                yield new Elements(name, each);
            }
            case "have-key-with-value" -> {
                if (!(argument instanceof Map<?, ?> pair) || pair.size() != 1) throw new IllegalArgumentException(where + ": expected {key: value}");
                Map.Entry<?, ?> e = pair.entrySet().iterator().next();
                yield new KeyWithValue(String.valueOf(e.getKey()), of(e.getValue(), where));
            }
            case "not" -> new Not(of(argument, where));
            case "and", "or" -> {
                if (!(argument instanceof List<?> items) || items.isEmpty()) throw new IllegalArgumentException(where + ": expected a list of matchers");
                List<Matcher> each = new ArrayList<>();
                for (Object item : items) each.add(of(item, where));
                yield new AllOrAny(name.equals("and"), each);
            }
            default -> throw new IllegalStateException(name);
        };
    }

    static BigDecimal number(Object value, String where) {
        BigDecimal n = asNumber(value);
        if (n == null) throw new IllegalArgumentException(where + ": expected a number, got " + quote(value));
        return n;
    }

    private static String text(Object value, String where) {
        if (value instanceof Map<?, ?> || value instanceof List<?> || value == null) {
            throw new IllegalArgumentException(where + ": expected a string, got " + quote(value));
        }
        return String.valueOf(value);
    }

    static Pattern regexp(String source, String where) {
        try {
            return Pattern.compile(source);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(where + ": not a regular expression: " + e.getDescription());
        }
    }

    /** A number, or a string of one (goss reads "0644" modes and "100" sizes alike); null when it is neither. */
    static BigDecimal asNumber(Object value) {
        if (value instanceof Number || value instanceof String) {
            try {
                return new BigDecimal(String.valueOf(value).strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    static String quote(Object value) {
        if (value instanceof String s) return '"' + s + '"';
        if (value instanceof List<?> list) return list.stream().map(Matcher::quote).toList().toString();
        return String.valueOf(value);
    }

    /** A plain value: equal (numbers by value, so 80 is "80"); a list: the same elements in any order. */
    record Equal(Object expected) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            if (expected instanceof List<?> items && actual instanceof List<?> have) {
                List<Matcher> each = items.stream().map(item -> (Matcher) new Equal(item)).toList();
                return new Elements("consist-of", each).mismatch(have);
            }
            return same(expected, actual) ? null : notMatching(actual);
        }

        static boolean same(Object expected, Object actual) {
            if (expected instanceof Boolean || actual instanceof Boolean) return String.valueOf(expected).equals(String.valueOf(actual));
            BigDecimal a = asNumber(expected);
            BigDecimal b = asNumber(actual);
            if (a != null && b != null && (expected instanceof Number || actual instanceof Number)) return a.compareTo(b) == 0;
            return String.valueOf(expected).equals(String.valueOf(actual));
        }

        @Override
        public String describe() {
            return quote(expected);
        }
    }

    record Compare(String how, BigDecimal than) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            BigDecimal n = asNumber(actual);
            if (n == null) return "expected a number " + describe() + ", got " + quote(actual);
            int c = n.compareTo(than);
            boolean ok = switch (how) {
                case "lt" -> c < 0;
                case "le" -> c <= 0;
                case "gt" -> c > 0;
                default -> c >= 0;
            };
            return ok ? null : notMatching(actual);
        }

        @Override
        public String describe() {
            return "{" + how + ": " + than.toPlainString() + "}";
        }
    }

    record Text(String how, String text) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            String s = String.valueOf(actual);
            boolean ok = switch (how) {
                case "have-prefix" -> s.startsWith(text);
                case "have-suffix" -> s.endsWith(text);
                default -> s.contains(text);
            };
            return ok ? null : notMatching(actual);
        }

        @Override
        public String describe() {
            return "{" + how + ": " + quote(text) + "}";
        }
    }

    record Regexp(Pattern pattern) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            return pattern.matcher(String.valueOf(actual)).find() ? null : notMatching(actual);
        }

        @Override
        public String describe() {
            return "{match-regexp: " + quote(pattern.pattern()) + "}";
        }
    }

    record Length(int length) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            int have = actual instanceof List<?> list ? list.size() : actual instanceof Map<?, ?> map ? map.size() : String.valueOf(actual).length();
            return have == length ? null : notMatching(actual) + " (length " + have + ")";
        }

        @Override
        public String describe() {
            return "{have-len: " + length + "}";
        }
    }

    record Element(Matcher element) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            for (Object item : items(actual)) if (element.mismatch(item) == null) return null;
            return notMatching(items(actual));
        }

        @Override
        public String describe() {
            return "{contain-element: " + element.describe() + "}";
        }
    }

    /** contain-elements: each matched by some element; consist-of: that, and nothing else, one element each. */
    record Elements(String how, List<Matcher> each) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            List<Object> left = new ArrayList<>(items(actual));
            for (Matcher m : each) {
                int at = -1;
                for (int i = 0; i < left.size() && at < 0; i++) if (m.mismatch(left.get(i)) == null) at = i;
                if (at < 0) return notMatching(items(actual)) + " (no element " + m.describe() + ")";
                left.remove(at);
            }
            if (how.equals("consist-of") && !left.isEmpty()) return notMatching(items(actual)) + " (also " + quote(left) + ")";
            return null;
        }

        @Override
        public String describe() {
            return "{" + how + ": " + each.stream().map(Matcher::describe).toList() + "}";
        }
    }

    record KeyWithValue(String key, Matcher value) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            if (actual instanceof Map<?, ?> map) {
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (String.valueOf(e.getKey()).equalsIgnoreCase(key) && value.mismatch(e.getValue()) == null) return null;
                }
            }
            return notMatching(actual);
        }

        @Override
        public String describe() {
            return "{have-key-with-value: {" + key + ": " + value.describe() + "}}";
        }
    }

    record Not(Matcher inner) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            return inner.mismatch(actual) == null ? notMatching(actual) : null;
        }

        @Override
        public String describe() {
            return "{not: " + inner.describe() + "}";
        }
    }

    record AllOrAny(boolean all, List<Matcher> each) implements Matcher {
        @Override
        public String mismatch(Object actual) {
            for (Matcher m : each) {
                String why = m.mismatch(actual);
                if (all && why != null) return why;
                if (!all && why == null) return null;
            }
            return all ? null : notMatching(actual);
        }

        @Override
        public String describe() {
            return "{" + (all ? "and" : "or") + ": " + each.stream().map(Matcher::describe).toList() + "}";
        }
    }

    private static List<?> items(Object actual) {
        if (actual instanceof List<?> list) return list;
        if (actual == null) return List.of();
        return List.of(actual);
    }
}
