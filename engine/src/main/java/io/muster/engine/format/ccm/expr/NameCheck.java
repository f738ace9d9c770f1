package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Node.Call;
import io.muster.engine.format.ccm.expr.Node.Identifier;
import io.muster.engine.format.ccm.expr.Node.Let;
import java.util.HashSet;
import java.util.Set;

/**
 * Finds, before anything is evaluated, a name an expression uses that a plain CCM environment does not have: a
 * variable other than {@code Data}, {@code Facts}, {@code Environ} and its own {@code let} names, or a function that
 * is neither CCM's nor a builtin. expr-lang finds these when it compiles an expression; so does muster.
 */
final class NameCheck {
    private static final Set<String> VARIABLES = Set.of("Data", "Facts", "Environ", "$env");

    private final Set<String> lets = new HashSet<>();

    private NameCheck() {}

    /** The first unknown name in {@code root}, as an error at its column; null when there is none. */
    static CcmSyntaxException first(Node root) {
        return new NameCheck().find(root);
    }

    private CcmSyntaxException find(Node node) {
        switch (node) {
            case Identifier i when !VARIABLES.contains(i.name()) && !lets.contains(i.name()) -> {
                return new CcmSyntaxException(i.column(), "unknown name '" + i.name() + "'; expected Data, Facts, Environ, or a function call");
            }
            case Call c when !known(c.name()) -> {
                return new CcmSyntaxException(c.column(), "unknown function '" + c.name() + "'");
            }
            case Let l -> lets.add(l.name());
            default -> { }
        }
        for (Node child : Node.children(node)) {
            CcmSyntaxException found = find(child);
            if (found != null) return found;
        }
        return null;
    }

    private static boolean known(String name) {
        return Builtins.NAMES.contains(name) || CcmFunctions.NAMES.contains(name) || TextFunctions.NAMES.contains(name)
                || ListFunctions.NAMES.contains(name) || Builtins.takesPredicate(name);
    }
}
