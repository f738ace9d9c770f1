package io.muster.engine.format.ccm.expr;

import io.muster.engine.format.ccm.expr.Token.Kind;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/** Splits an expression into tokens as expr-lang's lexer does: its literals, operators and brackets. */
final class Lexer {
    /** Longest first, so that {@code **} is not read as two {@code *}. */
    private static final List<String> OPERATORS = List.of(
            "?.", "??", "**", "==", "!=", "<=", ">=", "&&", "||", "..",
            "+", "-", "*", "/", "%", "^", "<", ">", "!", "?", ":", ".", ",", "(", ")", "[", "]", "{", "}", "|", "#", ";", "=");

    private final String text;
    private int at;

    private Lexer(String text) {
        this.text = text;
    }

    static List<Token> tokens(String text) throws CcmSyntaxException {
        Lexer lexer = new Lexer(text);
        List<Token> tokens = new ArrayList<>();
        Token t;
        do {
            t = lexer.next();
            tokens.add(t);
        } while (t.kind() != Kind.END);
        return tokens;
    }

    private Token next() throws CcmSyntaxException {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
        int start = at;
        if (at >= text.length()) return new Token(Kind.END, "", null, start + 1);
        char c = text.charAt(at);
        if (Character.isDigit(c) || (c == '.' && at + 1 < text.length() && Character.isDigit(text.charAt(at + 1)))) return number(start);
        if (c == '\'' || c == '"') return quoted(start, c);
        if (c == '`') return raw(start);
        if (Character.isLetter(c) || c == '_' || c == '$') {
            while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_' || text.charAt(at) == '$')) at++;
            String word = text.substring(start, at);
            return new Token(Kind.IDENTIFIER, word, word, start + 1);
        }
        for (String op : OPERATORS) {
            if (text.startsWith(op, at)) {
                // "?." before a digit is the ternary then a number (a ?.5 : 1), as in expr-lang
                if (op.equals("?.") && at + 2 < text.length() && Character.isDigit(text.charAt(at + 2))) continue;
                at += op.length();
                return new Token(Kind.OPERATOR, op, op, start + 1);
            }
        }
        throw new CcmSyntaxException(start + 1, "unexpected character '" + c + "'");
    }

    private Token number(int start) throws CcmSyntaxException {
        if (text.startsWith("0x", at) || text.startsWith("0X", at)) return radix(start, 16);
        if (text.startsWith("0o", at) || text.startsWith("0O", at)) return radix(start, 8);
        if (text.startsWith("0b", at) || text.startsWith("0B", at)) return radix(start, 2);
        boolean floating = false;
        digits();
        // a '.' makes a float unless it starts the range operator '..' or a member name
        if (at < text.length() && text.charAt(at) == '.' && !text.startsWith("..", at)
                && !(at + 1 < text.length() && Character.isLetter(text.charAt(at + 1)))) {
            floating = true;
            at++;
            digits();
        }
        if (at < text.length() && (text.charAt(at) == 'e' || text.charAt(at) == 'E')) {
            floating = true;
            at++;
            if (at < text.length() && (text.charAt(at) == '+' || text.charAt(at) == '-')) at++;
            int exponent = at;
            digits();
            if (at == exponent) throw new CcmSyntaxException(start + 1, "invalid number '" + text.substring(start, at) + "': no exponent digits");
        }
        String written = text.substring(start, at);
        if (at < text.length() && (Character.isLetter(text.charAt(at)) || text.charAt(at) == '_')) {
            throw new CcmSyntaxException(start + 1, "invalid number '" + written + text.charAt(at) + "'");
        }
        String clean = written.replace("_", "");
        if (floating) return new Token(Kind.NUMBER, written, Double.parseDouble(clean), start + 1);
        return new Token(Kind.NUMBER, written, integer(new BigInteger(clean), start, written), start + 1);
    }

    private Token radix(int start, int radix) throws CcmSyntaxException {
        at += 2;
        int digitsStart = at;
        while (at < text.length() && (Character.digit(text.charAt(at), radix) >= 0 || text.charAt(at) == '_')) at++;
        String written = text.substring(start, at);
        String clean = text.substring(digitsStart, at).replace("_", "");
        if (clean.isEmpty() || (at < text.length() && Character.isLetterOrDigit(text.charAt(at)))) {
            throw new CcmSyntaxException(start + 1, "invalid number '" + written + (at < text.length() ? text.charAt(at) : "") + "'");
        }
        return new Token(Kind.NUMBER, written, integer(new BigInteger(clean, radix), start, written), start + 1);
    }

    private static Object integer(BigInteger value, int start, String written) throws CcmSyntaxException {
        if (value.bitLength() >= 64) throw new CcmSyntaxException(start + 1, "integer '" + written + "' is out of range");
        return value.longValue();
    }

    private void digits() {
        while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '_')) at++;
    }

    private Token raw(int start) throws CcmSyntaxException {
        int end = text.indexOf('`', at + 1);
        if (end < 0) throw new CcmSyntaxException(start + 1, "unterminated raw string (no closing '`')");
        at = end + 1;
        return new Token(Kind.STRING, text.substring(start, at), text.substring(start + 1, end), start + 1);
    }

    private Token quoted(int start, char quote) throws CcmSyntaxException {
        StringBuilder out = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) throw new CcmSyntaxException(start + 1, "unterminated string (no closing " + quote + ")");
            char c = text.charAt(at++);
            if (c == quote) break;
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) throw new CcmSyntaxException(start + 1, "unterminated string (no closing " + quote + ")");
            escape(out, at - 1);
        }
        return new Token(Kind.STRING, text.substring(start, at), out.toString(), start + 1);
    }

    /** Go's escapes, as expr-lang reads them; {@code at} is just past the backslash. */
    private void escape(StringBuilder out, int backslash) throws CcmSyntaxException {
        char e = text.charAt(at++);
        switch (e) {
            case 'a' -> out.append('\u0007');
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'n' -> out.append('\n');
            case 'r' -> out.append('\r');
            case 't' -> out.append('\t');
            case 'v' -> out.append('\u000b');
            case '\\', '\'', '"' -> out.append(e);
            case 'x' -> out.appendCodePoint(hex(2, backslash));
            case 'u' -> out.appendCodePoint(hex(4, backslash));
            case 'U' -> out.appendCodePoint(hex(8, backslash));
            default -> {
                if (e >= '0' && e <= '7' && at + 1 < text.length()) {
                    String octal = text.substring(at - 1, at + 2);
                    if (octal.chars().allMatch(d -> d >= '0' && d <= '7')) {
                        at += 2;
                        out.append((char) Integer.parseInt(octal, 8));
                        return;
                    }
                }
                throw new CcmSyntaxException(backslash + 1, "unknown escape '\\" + e + "' in string");
            }
        }
    }

    private int hex(int count, int backslash) throws CcmSyntaxException {
        if (at + count > text.length()) throw new CcmSyntaxException(backslash + 1, "escape too short in string");
        String digits = text.substring(at, at + count);
        try {
            int value = Integer.parseUnsignedInt(digits, 16);
            if (!Character.isValidCodePoint(value)) throw new NumberFormatException();
            at += count;
            return value;
        } catch (NumberFormatException e) {
            throw new CcmSyntaxException(backslash + 1, "invalid escape '\\" + text.charAt(at - 1) + digits + "' in string");
        }
    }
}
