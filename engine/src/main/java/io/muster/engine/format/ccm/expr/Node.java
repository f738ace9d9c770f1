package io.muster.engine.format.ccm.expr;

import java.util.List;

/** The syntax tree of an expression; every node knows the column (1-based) of the construct it stands for. */
sealed interface Node {
    int column();

    record Literal(Object value, int column) implements Node {}

    /** A variable: {@code Data}, {@code Facts}, {@code Environ}, a {@code let} name, or one the caller's environment adds. */
    record Identifier(String name, int column) implements Node {}

    /** Inside a predicate: {@code #} (the element), {@code #index} or {@code #acc} (in {@code reduce}). */
    record Pointer(String name, int column) implements Node {}

    /** {@code object.name}, {@code object?.name} or {@code object[key]}. */
    record Member(Node object, Node key, boolean optional, int column) implements Node {}

    /** {@code object[from:to]}, either bound may be absent (null). */
    record Slice(Node object, Node from, Node to, int column) implements Node {}

    /** A member chain holding a {@code ?.}: a nil before it makes the whole chain nil. */
    record Chain(Node inner, int column) implements Node {}

    /** A function called by name; a pipe {@code x | f(y)} is {@code f(x, y)}. */
    record Call(String name, List<Node> arguments, int column) implements Node {}

    /** A method of a value: {@code now().Format('2006-01-02')}. */
    record MethodCall(Node object, String name, List<Node> arguments, int column) implements Node {}

    record Unary(String operator, Node operand, int column) implements Node {}

    record Binary(String operator, Node left, Node right, int column) implements Node {}

    record Conditional(Node condition, Node then, Node otherwise, int column) implements Node {}

    record ArrayLiteral(List<Node> items, int column) implements Node {}

    record MapLiteral(List<Node> keys, List<Node> values, int column) implements Node {}

    /** A predicate given to {@code filter}, {@code map}, {@code all}…: evaluated once per element. */
    record Closure(Node body, int column) implements Node {}

    /** {@code let name = value; body}. */
    record Let(String name, Node value, Node body, int column) implements Node {}
}
