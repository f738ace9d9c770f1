package io.muster.engine.resource.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command string into argv the way a user reads it, without a shell: whitespace separates
 * words, single quotes are literal, double quotes and backslashes escape. Shell syntax (variables, globs,
 * {@code ~}, operators, redirections) is reported, because without {@code shell: true} it would silently
 * become plain arguments.
 */
final class CommandLine {
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

    /** Shell syntax found in a command: its text ({@code $HOME}, {@code >}) and what a shell would make of it. */
    record ShellSyntax(String text, String meaning) {}

    /**
     * The first piece of {@code command} that a shell would interpret and an argv split passes on as it is:
     * a variable or command substitution (also inside double quotes, where a shell still expands them), an
     * operator or redirection (also attached to a word, {@code a>b}), a glob, or a {@code ~} starting a word;
     * null when there is none. A lone {@code [} is the test program, and a {@code $} before a space is a
     * plain {@code $} to a shell too.
     */
    static ShellSyntax shellSyntax(String command) {
        char quote = 0;
        boolean wordStart = true;
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (quote == '\'') {
                if (c == '\'') quote = 0;
                continue;
            }
            if (c == '\\') {
                i++;
                wordStart = false;
                continue;
            }
            ShellSyntax expansion = expansion(command, i);
            if (expansion != null) return expansion;
            if (quote == '"') {
                if (c == '"') quote = 0;
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                wordStart = false;
                continue;
            }
            ShellSyntax found = unquoted(command, i, wordStart);
            if (found != null) return found;
            wordStart = Character.isWhitespace(c);
        }
        return null;
    }

    /** {@code $NAME}, {@code ${…}}, {@code $(…)} or a backquote at {@code i}, which a shell expands even in double quotes. */
    private static ShellSyntax expansion(String command, int i) {
        char c = command.charAt(i);
        if (c == '`') return new ShellSyntax("`", "command substitution");
        if (c != '$' || i + 1 >= command.length()) return null;
        char next = command.charAt(i + 1);
        if (next == '(') return new ShellSyntax("$(", "command substitution");
        if (next == '{') return new ShellSyntax("${", "a variable");
        if (!Character.isLetterOrDigit(next) && next != '_' && "@*#?!$-".indexOf(next) < 0) return null;
        int end = i + 2;
        while (end < command.length() && (Character.isLetterOrDigit(command.charAt(end)) || command.charAt(end) == '_')) end++;
        return new ShellSyntax(command.substring(i, end), "a variable");
    }

    private static ShellSyntax unquoted(String command, int i, boolean wordStart) {
        char c = command.charAt(i);
        String rest = command.substring(i);
        return switch (c) {
            case '|' -> rest.startsWith("||") ? new ShellSyntax("||", "an or-list") : new ShellSyntax("|", "a pipe");
            case '&' -> rest.startsWith("&&") ? new ShellSyntax("&&", "an and-list") : new ShellSyntax("&", "a background job");
            case ';' -> new ShellSyntax(";", "a command separator");
            case '>', '<' -> new ShellSyntax(rest.startsWith(">>") || rest.startsWith("<<") || rest.startsWith(">&")
                    ? rest.substring(0, 2) : String.valueOf(c), "a redirection");
            case '(', ')' -> new ShellSyntax(String.valueOf(c), "a subshell");
            case '*', '?' -> new ShellSyntax(word(command, i), "a glob");
            case '[' -> glob(command, i, wordStart);
            case '~' -> wordStart ? new ShellSyntax(word(command, i), "the home directory") : null;
            default -> null;
        };
    }

    /** {@code [abc]} in a word is a glob; a {@code [} alone is the test program, {@code [ -f x ]}. */
    private static ShellSyntax glob(String command, int i, boolean wordStart) {
        String word = word(command, i);
        if (wordStart && word.equals("[")) return null;
        return word.indexOf(']') > 0 ? new ShellSyntax(word, "a glob") : null;
    }

    /** The rest of the word {@code i} is in, from {@code i}: to show what was found. */
    private static String word(String command, int i) {
        int end = i;
        while (end < command.length() && !Character.isWhitespace(command.charAt(end))) end++;
        return command.substring(i, end);
    }
}
