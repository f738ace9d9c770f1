package io.muster.engine.format.ccm.expr;

import java.util.List;

/** A part of a {@link JetTemplate}: text, a value written, an assignment, an {@code if} or a {@code range}. */
sealed interface JetNode {
    /** An expression as written in a tag, starting at {@code offset} in the template. */
    record Expression(CcmExpression parsed, int offset) {}

    record Text(String text) implements JetNode {}

    record Print(Expression expression) implements JetNode {}

    record Assign(String name, Expression expression) implements JetNode {}

    /** One branch of an {@code if}: its condition (null for {@code else}) and body. */
    record Branch(Expression condition, List<JetNode> body) {}

    record If(List<Branch> branches) implements JetNode {}

    /** {@code range [key[, value] :=] expression}, its body, and what an empty one writes ({@code else}). */
    record Range(String key, String value, Expression expression, List<JetNode> body, List<JetNode> otherwise) implements JetNode {}
}
