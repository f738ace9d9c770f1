package io.muster.engine.format.ccm.expr;

/**
 * One token of an expression: {@code value} is the literal's value for numbers and strings, else the text.
 *
 * @param column 1-based, in the expression's text
 */
record Token(Kind kind, String text, Object value, int column) {
    enum Kind { NUMBER, STRING, IDENTIFIER, OPERATOR, END }

    boolean is(Kind k, String t) {
        return kind == k && text.equals(t);
    }

    boolean isOperator(String t) {
        return is(Kind.OPERATOR, t);
    }

    String describe() {
        return kind == Kind.END ? "the end of the expression" : "'" + text + "'";
    }
}
