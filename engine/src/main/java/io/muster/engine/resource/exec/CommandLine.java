package io.muster.engine.resource.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command string into argv the way a user reads it, without a shell: whitespace separates
 * words, single quotes are literal, double quotes and backslashes escape. Shell operators outside quotes
 * are reported, because without {@code shell: true} they would silently become plain arguments.
 */
final class CommandLine {
    private static final List<String> OPERATORS = List.of("|", "||", "&&", ";", ">", ">>", "<", "&", "2>", "2>&1");

    private CommandLine() {}

    static List<String> split(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (Character.isWhitespace(c)) {
                if (inWord) words.add(word.toString());
                word.setLength(0);
                inWord = false;
                continue;
            }
            inWord = true;
            if (c == '\'') {
                int end = command.indexOf('\'', i + 1);
                if (end < 0) throw new IllegalArgumentException("unterminated single quote in command");
                word.append(command, i + 1, end);
                i = end;
            } else if (c == '"') {
                i++;
                while (i < command.length() && command.charAt(i) != '"') {
                    char d = command.charAt(i);
                    if (d == '\\' && i + 1 < command.length() && "\"\\$`".indexOf(command.charAt(i + 1)) >= 0) d = command.charAt(++i);
                    word.append(d);
                    i++;
                }
                if (i >= command.length()) throw new IllegalArgumentException("unterminated double quote in command");
            } else if (c == '\\' && i + 1 < command.length()) {
                word.append(command.charAt(++i));
            } else {
                word.append(c);
            }
        }
        if (inWord) words.add(word.toString());
        if (words.isEmpty()) throw new IllegalArgumentException("command is empty");
        return List.copyOf(words);
    }

    /** The first unquoted shell operator or substitution in {@code command}, or null. */
    static String shellSyntax(String command) {
        char quote = 0;
        StringBuilder word = new StringBuilder();
        for (int i = 0; i <= command.length(); i++) {
            char c = i < command.length() ? command.charAt(i) : ' ';
            if (quote != 0) {
                if (c == quote) quote = 0;
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '`' || (c == '$' && i + 1 < command.length() && command.charAt(i + 1) == '(')) {
                return c == '`' ? "`" : "$(";
            } else if (c == '\\') {
                i++;
            } else if (Character.isWhitespace(c)) {
                if (OPERATORS.contains(word.toString())) return word.toString();
                word.setLength(0);
                continue;
            }
            if (!Character.isWhitespace(c)) word.append(c);
        }
        return null;
    }
}
