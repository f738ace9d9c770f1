package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code @require} ({@code @required}) and {@code @validate EXPR} directives CCM reads from the comments of a
 * manifest's {@code data:} keys: a comment on the lines above a key or at the end of its line. YAML comments are
 * not part of the tree, so they are read from the manifest's text; keys of block mappings only, as list items carry
 * no rules in CCM either.
 */
final class DataRules {
    /** A key's rules: where it is written, its dotted path, whether it must have a value, and its validation. */
    record Rule(Mark mark, String key, boolean required, String validation) {}

    private static final Pattern KEY = Pattern.compile("^( *)(\"[^\"]*\"|'[^']*'|[^\\s#\"'\\-][^:#]*?)\\s*:(?:\\s+(.*))?$");
    private static final Pattern INLINE_COMMENT = Pattern.compile("\\s#(.*)$");

    private DataRules() {}

    static List<Rule> of(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of(); // the manifest was read a moment ago: the reader said why if it cannot be
        }
        Map<String, Rule> rules = new LinkedHashMap<>();
        Deque<Object[]> keys = new ArrayDeque<>(); // {indent, name}
        List<String> pending = new ArrayList<>();
        boolean inData = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String stripped = line.strip();
            if (stripped.startsWith("#")) {
                pending.add(stripped.substring(1));
                continue;
            }
            if (stripped.isEmpty()) continue;
            int indent = line.length() - line.stripLeading().length();
            if (indent == 0) {
                inData = line.startsWith("data:");
                keys.clear();
                pending.clear();
                continue;
            }
            Matcher key = KEY.matcher(line);
            if (!inData || stripped.startsWith("- ") || !key.matches()) {
                pending.clear();
                continue;
            }
            while (!keys.isEmpty() && (int) keys.peek()[0] >= indent) keys.pop();
            keys.push(new Object[] {indent, unquoted(key.group(2))});
            List<String> comments = new ArrayList<>(pending);
            pending.clear();
            Matcher inline = INLINE_COMMENT.matcher(key.group(3) == null ? "" : " " + key.group(3));
            if (inline.find()) comments.add(inline.group(1));
            Rule rule = rule(new Mark(file, i + 1, indent + 1), path(keys), comments);
            if (rule != null) rules.put(rule.key(), rule);
        }
        return List.copyOf(rules.values());
    }

    private static Rule rule(Mark mark, String key, List<String> comments) {
        boolean required = false;
        String validation = "";
        boolean any = false;
        for (String comment : comments) {
            String text = comment.strip();
            if (text.equals("@require") || text.equals("@required")) {
                required = true;
                any = true;
            } else if (text.startsWith("@validate ") && !text.substring("@validate ".length()).isBlank()) {
                validation = text.substring("@validate ".length()).strip();
                any = true;
            }
        }
        return any ? new Rule(mark, key, required, validation) : null;
    }

    private static String path(Deque<Object[]> keys) {
        List<String> names = new ArrayList<>();
        keys.descendingIterator().forEachRemaining(k -> names.add((String) k[1]));
        return String.join(".", names);
    }

    private static String unquoted(String key) {
        String k = key.strip();
        return k.length() >= 2 && (k.startsWith("\"") || k.startsWith("'")) ? k.substring(1, k.length() - 1) : k;
    }
}
