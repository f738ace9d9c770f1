package io.muster.engine.format.ccm.expr;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads a {@link JetTemplate}'s text into its nodes, nesting {@code if} and {@code range} bodies up to their {@code end}. */
final class JetParser {
    private static final Pattern ASSIGN = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*:?=(?!=)\\s*(.+)", Pattern.DOTALL);
    private static final Pattern RANGE = Pattern.compile(
            "range\\s+(?:([A-Za-z_][A-Za-z0-9_]*)\\s*(?:,\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*)?:=\\s*)?(.+)", Pattern.DOTALL);
    private static final Set<String> REFUSED = Set.of("block", "yield", "include", "import", "extends", "return", "try", "catch");

    /** An {@code if} or {@code range} whose {@code end} is still to come: where its nodes go now. */
    private static final class Open {
        final JetNode.Range range; // null for an if
        final List<JetNode.Branch> branches = new ArrayList<>();
        List<JetNode> current;
        final int at;

        Open(JetNode.Expression condition, List<JetNode> body, JetNode.Range range, int at) {
            this.range = range;
            this.current = body;
            this.at = at;
            if (range == null) branches.add(new JetNode.Branch(condition, body));
        }
    }

    private final String text;
    private final String left;
    private final String right;
    private final List<JetNode> top = new ArrayList<>();
    private final Deque<Open> open = new ArrayDeque<>();

    JetParser(String text, String left, String right) {
        this.text = text;
        this.left = left;
        this.right = right;
    }

    List<JetNode> parse() throws CcmSyntaxException {
        int at = 0;
        StringBuilder pending = new StringBuilder();
        while (true) {
            int tag = text.indexOf(left, at);
            int comment = text.indexOf("{*", at);
            if (comment >= 0 && (tag < 0 || comment < tag)) {
                int end = text.indexOf("*}", comment + 2);
                if (end < 0) throw error(comment, "a comment opened with '{*' is not closed with '*}'");
                pending.append(text, at, comment);
                at = end + 2;
                continue;
            }
            if (tag < 0) break;
            int close = text.indexOf(right, tag + left.length());
            if (close < 0) throw error(tag, "a tag opened with '" + left + "' is not closed with '" + right + "'");
            String inner = text.substring(tag + left.length(), close);
            pending.append(text, at, tag);
            at = close + right.length();
            int start = tag + left.length();
            if (inner.length() > 1 && inner.charAt(0) == '-' && Character.isWhitespace(inner.charAt(1))) {
                trimEnd(pending);
                inner = inner.substring(1);
                start++;
            }
            if (inner.length() > 1 && inner.endsWith("-") && Character.isWhitespace(inner.charAt(inner.length() - 2))) {
                inner = inner.substring(0, inner.length() - 1);
                while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
            }
            if (!pending.isEmpty()) add(new JetNode.Text(pending.toString()));
            pending.setLength(0);
            int lead = inner.length() - inner.stripLeading().length();
            tag(inner.strip(), start + lead);
        }
        pending.append(text.substring(at));
        if (!pending.isEmpty()) add(new JetNode.Text(pending.toString()));
        if (!open.isEmpty()) throw error(open.peek().at, "this " + (open.peek().range == null ? "if" : "range") + " has no end");
        return List.copyOf(top);
    }

    private void tag(String body, int offset) throws CcmSyntaxException {
        String first = body.split("\\s+", 2)[0];
        if (body.isEmpty()) throw error(offset, "empty tag");
        if (REFUSED.contains(first)) throw error(offset, "'" + first + "' in a Jet template is not supported by muster");
        switch (first) {
            case "if" -> {
                Open frame = new Open(expression(body.substring(2), offset + 2), new ArrayList<>(), null, offset);
                add(new JetNode.If(frame.branches));
                open.push(frame);
            }
            case "else" -> otherwise(body, offset);
            case "end" -> {
                if (open.isEmpty()) throw error(offset, "an end with no if or range before it");
                open.pop();
            }
            case "range" -> range(body, offset);
            default -> {
                Matcher assign = ASSIGN.matcher(body);
                if (assign.matches()) add(new JetNode.Assign(assign.group(1), expression(assign.group(2), offset + assign.start(2))));
                else add(new JetNode.Print(expression(body, offset)));
            }
        }
    }

    private void otherwise(String body, int offset) throws CcmSyntaxException {
        Open frame = open.peek();
        if (frame == null) throw error(offset, "an else with no if or range before it");
        String rest = body.substring(4).strip();
        if (frame.range != null) {
            if (!rest.isEmpty()) throw error(offset, "a range's else takes no condition");
            frame.current = frame.range.otherwise();
            return;
        }
        List<JetNode> branch = new ArrayList<>();
        if (rest.startsWith("if ") || rest.equals("if")) {
            frame.branches.add(new JetNode.Branch(expression(rest.substring(2), offset + body.indexOf(rest) + 2), branch));
        } else if (rest.isEmpty()) {
            frame.branches.add(new JetNode.Branch(null, branch));
        } else {
            throw error(offset, "expected 'else' or 'else if CONDITION', got '" + body + "'");
        }
        frame.current = branch;
    }

    private void range(String body, int offset) throws CcmSyntaxException {
        Matcher m = RANGE.matcher(body);
        if (!m.matches()) throw error(offset, "expected 'range EXPRESSION' or 'range key, value := EXPRESSION'");
        List<JetNode> inside = new ArrayList<>();
        List<JetNode> otherwise = new ArrayList<>();
        JetNode.Range range = new JetNode.Range(m.group(1), m.group(2), expression(m.group(3), offset + m.start(3)), inside, otherwise);
        add(range);
        open.push(new Open(null, inside, range, offset));
    }

    private void add(JetNode node) {
        if (open.isEmpty()) top.add(node);
        else open.peek().current.add(node);
    }

    private JetNode.Expression expression(String written, int offset) throws CcmSyntaxException {
        String source = written.strip();
        int at = offset + written.indexOf(source);
        if (source.isEmpty()) throw error(offset, "expected an expression");
        try {
            return new JetNode.Expression(CcmExpression.parse(dots(source)), at);
        } catch (CcmSyntaxException e) {
            throw new CcmSyntaxException(e.error().column(), e.error().reason()).within(text, at);
        }
    }

    /** Jet's {@code .} (the current element) and {@code .Name} (a field of it) as the variable holding it. */
    static String dots(String expression) {
        StringBuilder out = new StringBuilder();
        char quote = 0;
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (quote != 0) {
                out.append(c);
                if (c == '\\' && quote != '`' && i + 1 < expression.length()) out.append(expression.charAt(++i));
                else if (c == quote) quote = 0;
                continue;
            }
            if (c == '"' || c == '\'' || c == '`') quote = c;
            if (c == '.' && !follows(out) && !(i + 1 < expression.length() && Character.isDigit(expression.charAt(i + 1)))) {
                out.append(JetTemplate.DOT);
                if (i + 1 < expression.length() && Character.isJavaIdentifierStart(expression.charAt(i + 1))) out.append('.');
                continue;
            }
            out.append(c);
        }
        return out.toString();
    }

    /** Whether a {@code .} after {@code written} reads a member of what it follows (a name, a call, an index, a range's {@code ..}). */
    private static boolean follows(StringBuilder written) {
        for (int i = written.length() - 1; i >= 0; i--) {
            char c = written.charAt(i);
            if (Character.isWhitespace(c)) continue;
            return Character.isLetterOrDigit(c) || c == '_' || c == ')' || c == ']' || c == '?' || c == '.';
        }
        return false;
    }

    private static void trimEnd(StringBuilder text) {
        int end = text.length();
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) end--;
        text.setLength(end);
    }

    private CcmSyntaxException error(int offset, String reason) {
        return new CcmSyntaxException(1, reason).within(text, offset);
    }
}
