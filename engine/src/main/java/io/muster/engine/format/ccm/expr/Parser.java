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
import io.muster.engine.format.ccm.expr.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * expr-lang's grammar, by precedence climbing as its parser does: the same operators, precedences and
 * associativity, pipes, the ternary and {@code ??}, predicates ({@code {# > 1}}), {@code let} and {@code if}.
 */
final class Parser {
    private record Operator(int precedence, boolean rightAssociative) {}

    private static final Map<String, Operator> BINARY = Map.ofEntries(
            Map.entry("|", new Operator(0, false)),
            Map.entry("or", new Operator(10, false)), Map.entry("||", new Operator(10, false)),
            Map.entry("and", new Operator(15, false)), Map.entry("&&", new Operator(15, false)),
            Map.entry("==", new Operator(20, false)), Map.entry("!=", new Operator(20, false)),
            Map.entry("<", new Operator(20, false)), Map.entry(">", new Operator(20, false)),
            Map.entry("<=", new Operator(20, false)), Map.entry(">=", new Operator(20, false)),
            Map.entry("in", new Operator(20, false)), Map.entry("matches", new Operator(20, false)),
            Map.entry("contains", new Operator(20, false)), Map.entry("startsWith", new Operator(20, false)),
            Map.entry("endsWith", new Operator(20, false)),
            Map.entry("..", new Operator(25, false)),
            Map.entry("+", new Operator(30, false)), Map.entry("-", new Operator(30, false)),
            Map.entry("*", new Operator(60, false)), Map.entry("/", new Operator(60, false)), Map.entry("%", new Operator(60, false)),
            Map.entry("**", new Operator(100, true)), Map.entry("^", new Operator(100, true)),
            Map.entry("??", new Operator(500, false)));
    /** The ordering comparisons, which chain: {@code 1 < x < 10}. */
    private static final Set<String> COMPARISONS = Set.of("<", ">", "<=", ">=");
    private static final Map<String, Integer> UNARY = Map.of("not", 50, "!", 50, "-", 90, "+", 90);
    /** The operators that may follow {@code not}: {@code not in}, {@code not contains}… */
    private static final Set<String> NEGATABLE = Set.of("in", "matches", "contains", "startsWith", "endsWith");
    /** CCM's functions that reach outside the host: muster has none of them. */
    private static final Map<String, String> REFUSED = Map.of(
            "kvGet", "kvGet() reads a NATS key-value store, which muster does not use",
            "registrations", "registrations() reads Choria service registrations, which muster does not use");

    private final List<Token> tokens;
    private int at;
    private int closures;

    private Parser(List<Token> tokens) {
        this.tokens = tokens;
    }

    static Node parse(String source) throws CcmSyntaxException {
        Parser parser = new Parser(Lexer.tokens(source));
        if (parser.current().kind() == Kind.END) throw new CcmSyntaxException(1, "empty expression");
        Node node = parser.expression(0);
        if (parser.current().kind() != Kind.END) throw parser.unexpected();
        return node;
    }

    private Token current() {
        return tokens.get(at);
    }

    private Token advance() {
        Token t = tokens.get(at);
        if (t.kind() != Kind.END) at++;
        return t;
    }

    private boolean atOperator(String op) {
        return current().isOperator(op);
    }

    private boolean atWord(String word) {
        return current().is(Kind.IDENTIFIER, word);
    }

    private void expect(String op) throws CcmSyntaxException {
        if (!atOperator(op)) throw new CcmSyntaxException(current().column(), "expected '" + op + "', found " + current().describe());
        advance();
    }

    private CcmSyntaxException unexpected() {
        Token t = current();
        return new CcmSyntaxException(t.column(), t.kind() == Kind.END ? "unexpected end of the expression" : "unexpected " + t.describe());
    }

    /** The text of a binary operator at the current token, or null. */
    private String binaryOperator(Token t) {
        if (t.kind() == Kind.OPERATOR && BINARY.containsKey(t.text())) return t.text();
        if (t.kind() == Kind.IDENTIFIER && BINARY.containsKey(t.text()) && Character.isLetter(t.text().charAt(0))) return t.text();
        return null;
    }

    private Node expression(int precedence) throws CcmSyntaxException {
        if (precedence == 0 && atWord("let")) return let();
        if (precedence == 0 && atWord("if")) return ifElse();
        Node left = primary();
        String previous = null;
        while (true) {
            Token token = current();
            boolean negate = token.is(Kind.IDENTIFIER, "not");
            if (negate) {
                Token following = tokens.get(at + 1);
                if (!(following.kind() == Kind.IDENTIFIER && NEGATABLE.contains(following.text()))) break;
                if (BINARY.get(following.text()).precedence() < precedence) break;
                advance();
                token = current();
            }
            String op = binaryOperator(token);
            if (op == null || BINARY.get(op).precedence() < precedence) break;
            advance();
            if (op.equals("|")) {
                left = pipe(left, token);
            } else {
                if ("??".equals(previous) && !op.equals("??")) {
                    throw new CcmSyntaxException(token.column(), "operator '" + op + "' and '??' cannot be mixed; wrap either in parentheses");
                }
                Operator operator = BINARY.get(op);
                if (COMPARISONS.contains(op)) {
                    left = comparison(left, token);
                    previous = op;
                    continue;
                }
                Node right = expression(operator.rightAssociative() ? operator.precedence() : operator.precedence() + 1);
                left = new Binary(op, left, right, token.column());
                if (negate) left = new Unary("not", left, token.column());
            }
            previous = op;
        }
        return precedence == 0 ? conditional(left) : left;
    }

    /** {@code a < b < c} is {@code a < b && b < c}, as in expr-lang; the first operator is consumed. */
    private Node comparison(Node left, Token first) throws CcmSyntaxException {
        Node chain = null;
        Token op = first;
        while (true) {
            Node right = expression(BINARY.get(op.text()).precedence() + 1);
            Node compared = new Binary(op.text(), left, right, op.column());
            chain = chain == null ? compared : new Binary("&&", chain, compared, op.column());
            left = right;
            if (!(current().kind() == Kind.OPERATOR && COMPARISONS.contains(current().text()))) return chain;
            op = advance();
        }
    }

    private Node pipe(Node left, Token bar) throws CcmSyntaxException {
        Token name = current();
        if (name.kind() != Kind.IDENTIFIER) {
            throw new CcmSyntaxException(name.column(), "expected a function call after '|', found " + name.describe());
        }
        advance();
        if (!atOperator("(")) throw new CcmSyntaxException(current().column(), "expected '(' after '| " + name.text() + "', found " + current().describe());
        List<Node> first = new ArrayList<>();
        first.add(left);
        return call(name, first);
    }

    private Node conditional(Node node) throws CcmSyntaxException {
        while (atOperator("?")) {
            Token question = advance();
            Node then;
            if (atOperator(":")) {
                advance();
                then = node;
            } else {
                then = expression(0);
                expect(":");
            }
            Node otherwise = expression(0);
            node = new Conditional(node, then, otherwise, question.column());
        }
        return node;
    }

    private Node let() throws CcmSyntaxException {
        Token let = advance();
        Token name = current();
        if (name.kind() != Kind.IDENTIFIER) throw new CcmSyntaxException(name.column(), "expected a variable name after 'let', found " + name.describe());
        advance();
        expect("=");
        Node value = expression(0);
        expect(";");
        return new Let(name.text(), value, expression(0), let.column());
    }

    private Node ifElse() throws CcmSyntaxException {
        Token token = advance();
        Node condition = expression(0);
        Node then = braced();
        if (!atWord("else")) throw new CcmSyntaxException(current().column(), "expected 'else' after 'if { … }', found " + current().describe());
        advance();
        Node otherwise = atWord("if") ? ifElse() : braced();
        return new Conditional(condition, then, otherwise, token.column());
    }

    private Node braced() throws CcmSyntaxException {
        expect("{");
        Node body = expression(0);
        expect("}");
        return body;
    }

    private Node primary() throws CcmSyntaxException {
        Token token = current();
        String op = token.kind() == Kind.OPERATOR || token.kind() == Kind.IDENTIFIER ? token.text() : null;
        if (op != null && UNARY.containsKey(op) && (token.kind() == Kind.OPERATOR || op.equals("not"))) {
            advance();
            return postfix(new Unary(op, expression(UNARY.get(op)), token.column()));
        }
        if (token.isOperator("(")) {
            advance();
            Node inner = expression(0);
            expect(")");
            return postfix(inner);
        }
        if (closures > 0 && token.isOperator("#")) {
            advance();
            String name = "";
            if (current().kind() == Kind.IDENTIFIER && current().column() == token.column() + 1) name = advance().text();
            return postfix(new Pointer(name, token.column()));
        }
        if (closures > 0 && token.isOperator(".")) {
            advance();
            Token name = current();
            if (name.kind() != Kind.IDENTIFIER) throw new CcmSyntaxException(name.column(), "expected a name after '.', found " + name.describe());
            advance();
            return postfix(new Member(new Pointer("", token.column()), new Literal(name.text(), name.column()), false, token.column()));
        }
        return postfix(secondary());
    }

    private Node secondary() throws CcmSyntaxException {
        Token token = current();
        switch (token.kind()) {
            case NUMBER, STRING -> {
                advance();
                return new Literal(token.value(), token.column());
            }
            case IDENTIFIER -> {
                advance();
                switch (token.text()) {
                    case "true" -> { return new Literal(true, token.column()); }
                    case "false" -> { return new Literal(false, token.column()); }
                    case "nil" -> { return new Literal(null, token.column()); }
                    default -> { }
                }
                if (atOperator("(")) return call(token, new ArrayList<>());
                return new Identifier(token.text(), token.column());
            }
            case OPERATOR -> {
                if (token.isOperator("[")) return array();
                if (token.isOperator("{")) return map();
                if (token.isOperator("#") || (token.isOperator(".") && tokens.get(at + 1).kind() == Kind.IDENTIFIER)) {
                    throw new CcmSyntaxException(token.column(), "'" + token.text() + "' stands for the element only inside a predicate such as filter(list, { # > 1 })");
                }
                throw unexpected();
            }
            default -> throw unexpected();
        }
    }

    /** The arguments of {@code name(…)}, after {@code given} (a pipe's left side); {@code (} is current. */
    private Node call(Token name, List<Node> given) throws CcmSyntaxException {
        String refused = REFUSED.get(name.text());
        if (refused != null) throw new CcmSyntaxException(name.column(), name.text() + "(): " + refused);
        expect("(");
        List<Node> arguments = given;
        boolean predicate = Builtins.takesPredicate(name.text());
        int piped = arguments.size();
        while (!atOperator(")")) {
            if (arguments.size() > piped) expect(",");
            if (atOperator(")")) break; // a trailing comma
            arguments.add(predicate && arguments.size() == 1 ? closure() : expression(0));
        }
        expect(")");
        return new Call(name.text(), List.copyOf(arguments), name.column());
    }

    private Node closure() throws CcmSyntaxException {
        Token start = current();
        closures++;
        try {
            if (atOperator("{")) {
                advance();
                Node body = expression(0);
                expect("}");
                return new Closure(body, start.column());
            }
            return new Closure(expression(0), start.column());
        } finally {
            closures--;
        }
    }

    private Node array() throws CcmSyntaxException {
        Token open = advance();
        return new ArrayLiteral(until("]"), open.column());
    }

    /** Expressions separated by commas (a trailing one allowed) up to {@code close}, which is consumed. */
    private List<Node> until(String close) throws CcmSyntaxException {
        List<Node> items = new ArrayList<>();
        while (!atOperator(close)) {
            if (!items.isEmpty()) expect(",");
            if (atOperator(close)) break;
            items.add(expression(0));
        }
        expect(close);
        return List.copyOf(items);
    }

    private Node map() throws CcmSyntaxException {
        Token open = advance();
        List<Node> keys = new ArrayList<>();
        List<Node> values = new ArrayList<>();
        while (!atOperator("}")) {
            if (!keys.isEmpty()) expect(",");
            if (atOperator("}")) break;
            keys.add(mapKey());
            expect(":");
            values.add(expression(0));
        }
        expect("}");
        return new MapLiteral(List.copyOf(keys), List.copyOf(values), open.column());
    }

    private Node mapKey() throws CcmSyntaxException {
        Token key = current();
        if (key.kind() == Kind.IDENTIFIER || key.kind() == Kind.STRING) {
            advance();
            return new Literal(key.kind() == Kind.STRING ? key.value() : key.text(), key.column());
        }
        if (key.kind() == Kind.NUMBER) { // as written, as expr-lang keys it
            advance();
            return new Literal(key.text(), key.column());
        }
        if (key.isOperator("(")) {
            advance();
            Node inner = expression(0);
            expect(")");
            return inner;
        }
        throw new CcmSyntaxException(key.column(), "expected a map key (a name, a string, a number or (expression)), found " + key.describe());
    }

    private Node postfix(Node node) throws CcmSyntaxException {
        boolean optional = false;
        while (true) {
            Token token = current();
            if (token.isOperator(".") || token.isOperator("?.")) {
                advance();
                boolean safe = token.isOperator("?.");
                optional |= safe;
                if (safe && atOperator("[")) {
                    node = index(node, true);
                    continue;
                }
                Token name = current();
                if (name.kind() != Kind.IDENTIFIER) throw new CcmSyntaxException(name.column(), "expected a name after '" + token.text() + "', found " + name.describe());
                advance();
                if (atOperator("(")) {
                    node = new MethodCall(node, name.text(), arguments(), name.column());
                } else {
                    node = new Member(node, new Literal(name.text(), name.column()), safe, token.column());
                }
            } else if (token.isOperator("[")) {
                node = index(node, false);
            } else {
                return optional ? new Chain(node, node.column()) : node;
            }
        }
    }

    private List<Node> arguments() throws CcmSyntaxException {
        expect("(");
        return until(")");
    }

    /** {@code [key]} or {@code [from:to]}; {@code [} is current. */
    private Node index(Node object, boolean optional) throws CcmSyntaxException {
        Token open = advance();
        Node from = null;
        if (!atOperator(":")) {
            from = expression(0);
            if (atOperator("]")) {
                advance();
                return new Member(object, from, optional, open.column());
            }
        }
        expect(":");
        Node to = atOperator("]") ? null : expression(0);
        expect("]");
        return new Slice(object, from, to, open.column());
    }
}
