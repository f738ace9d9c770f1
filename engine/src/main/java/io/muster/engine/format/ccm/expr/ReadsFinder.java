package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Node.ArrayLiteral;
import io.muster.engine.format.ccm.expr.Node.Binary;
import io.muster.engine.format.ccm.expr.Node.Call;
import io.muster.engine.format.ccm.expr.Node.Chain;
import io.muster.engine.format.ccm.expr.Node.Closure;
import io.muster.engine.format.ccm.expr.Node.Conditional;
import io.muster.engine.format.ccm.expr.Node.Identifier;
import io.muster.engine.format.ccm.expr.Node.Let;
import io.muster.engine.format.ccm.expr.Node.Literal;
import io.muster.engine.format.ccm.expr.Node.MapLiteral;
import io.muster.engine.format.ccm.expr.Node.Member;
import io.muster.engine.format.ccm.expr.Node.MethodCall;
import io.muster.engine.format.ccm.expr.Node.Pointer;
import io.muster.engine.format.ccm.expr.Node.Slice;
import io.muster.engine.format.ccm.expr.Node.Unary;
import java.util.List;

/** Walks a syntax tree for what it reads from the facts, the environment and files ({@link CcmReads}). */
final class ReadsFinder {
    private final CcmReads reads;

    ReadsFinder(CcmReads reads) {
        this.reads = reads;
    }

    void find(Node node) {
        switch (node) {
            case Member m when m.object() instanceof Identifier root && m.key() instanceof Literal(String name, int c) -> {
                named(root.name(), name);
                find(m.key());
            }
            case Identifier i -> named(i.name(), null);
            case Member m -> {
                find(m.object());
                find(m.key());
            }
            case Call c -> {
                call(c);
                c.arguments().forEach(this::find);
            }
            case Slice s -> {
                find(s.object());
                if (s.from() != null) find(s.from());
                if (s.to() != null) find(s.to());
            }
            case Chain c -> find(c.inner());
            case MethodCall m -> {
                find(m.object());
                m.arguments().forEach(this::find);
            }
            case Unary u -> find(u.operand());
            case Binary b -> {
                find(b.left());
                find(b.right());
            }
            case Conditional c -> {
                find(c.condition());
                find(c.then());
                find(c.otherwise());
            }
            case ArrayLiteral a -> a.items().forEach(this::find);
            case MapLiteral m -> {
                m.keys().forEach(this::find);
                m.values().forEach(this::find);
            }
            case Closure c -> find(c.body());
            case Let l -> {
                find(l.value());
                find(l.body());
            }
            case Literal l -> { }
            case Pointer p -> { }
        }
    }

    /** {@code Facts.name} or {@code Environ.NAME} ({@code key} null: the whole map, or a computed key). */
    private void named(String root, String key) {
        if (root.equals("Facts")) {
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
                if (literal != null && literal.endsWith(".templ")) {
                    reads.file(literal);
                    reads.anyFact();
                } else if (literal == null) {
                    reads.anyFact();
                }
            }
            default -> { }
        }
    }

    private void lookup(String path) {
        if (path == null) {
            reads.anyFact();
            reads.anyVariable();
            return;
        }
        String[] parts = path.split("\\.", 3);
        String name = parts.length > 1 ? parts[1].replace("\\", "") : null;
        switch (parts[0]) {
            case "facts" -> {
                if (name == null || name.isEmpty() || path.contains("\\")) reads.anyFact();
                else reads.fact(name);
            }
            case "environ" -> {
                if (name == null || name.isEmpty() || path.contains("\\")) reads.anyVariable();
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
