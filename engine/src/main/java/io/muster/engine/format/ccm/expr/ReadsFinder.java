package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Node.Call;
import io.muster.engine.format.ccm.expr.Node.Identifier;
import io.muster.engine.format.ccm.expr.Node.Literal;
import io.muster.engine.format.ccm.expr.Node.Member;
import java.util.List;

/** Walks a syntax tree for what it reads from the facts, the environment and files ({@link CcmReads}). */
final class ReadsFinder {
    private final CcmReads reads;

    ReadsFinder(CcmReads reads) {
        this.reads = reads;
    }

    void find(Node node) {
        switch (node) {
            case Member m when m.object() instanceof Identifier root && m.key() instanceof Literal(String name, int c) -> named(root.name(), name);
            case Identifier i -> named(i.name(), null);
            case Call c -> {
                call(c);
                c.arguments().forEach(this::find);
            }
            default -> Node.children(node).forEach(this::find);
        }
    }

    /** {@code Facts.name} or {@code Environ.NAME} ({@code key} null: the whole map, or a computed key). */
    private void named(String root, String key) {
        if (root.equals("$env")) { // every variable, or one by a name: Facts or Environ whole
            if (key == null || key.equals("Facts")) reads.anyFact();
            if (key == null || key.equals("Environ")) reads.anyVariable();
        } else if (root.equals("Facts")) {
            if (key == null) reads.anyFact();
            else reads.fact(key);
        } else if (root.equals("Environ")) {
            if (key == null) reads.anyVariable();
            else reads.variable(key);
        }
    }

    private void call(Call c) {
        List<Node> args = c.arguments();
        String literal = !args.isEmpty() && args.getFirst() instanceof Literal(String s, int col) ? s : null;
        switch (c.name()) {
            case "lookup" -> lookup(literal);
            case "file", "readFile" -> {
                if (literal != null) reads.file(literal);
            }
            case "template" -> {
                if (literal != null && literal.endsWith(".jet")) jet(literal);
                if (literal != null && literal.endsWith(".templ")) reads.file(literal);
                if (literal == null || literal.endsWith(".templ")) reads.anyFact();
            }
            case "jet" -> jet(literal);
            default -> { }
        }
    }

    /** A Jet template names what it reads inside its text: any fact or variable, and its file. */
    private void jet(String literal) {
        if (literal != null && literal.endsWith(".jet")) reads.file(literal);
        reads.anyFact();
        reads.anyVariable();
    }

    private void lookup(String path) {
        if (path == null) {
            reads.anyFact();
            reads.anyVariable();
            return;
        }
        String[] parts = path.split("\\.", 3);
        String name = parts.length > 1 && !path.contains("\\") ? parts[1] : "";
        switch (parts[0]) {
            case "facts" -> {
                if (name.isEmpty()) reads.anyFact();
                else reads.fact(name);
            }
            case "environ" -> {
                if (name.isEmpty()) reads.anyVariable();
                else reads.variable(name);
            }
            case "data" -> { }
            default -> {
                if (parts[0].indexOf('*') >= 0 || parts[0].indexOf('?') >= 0) {
                    reads.anyFact();
                    reads.anyVariable();
                }
            }
        }
    }
}
