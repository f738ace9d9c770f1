package io.muster.engine.format.ccm;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a command into words as CCM's posix exec provider does (go-shellquote): white space separates words,
 * single quotes keep everything, double quotes let a backslash escape only {@code $ ` " \} and a newline, a
 * backslash outside quotes escapes the next character. Nothing is expanded: {@code $HOME} and {@code >} reach the
 * program as they are written.
 */
final class ShellWords {
    private ShellWords() {}

    static List<String> split(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i++);
            if (c == ' ' || c == '\t' || c == '\n') {
                if (inWord) words.add(word.toString());
                word.setLength(0);
                inWord = false;
            } else if (c == '\\') {
                if (i == text.length()) throw new IllegalArgumentException("unterminated backslash-escape");
                char next = text.charAt(i++);
                if (next != '\n') word.append(next);
                inWord = true;
            } else if (c == '\'') {
                int end = text.indexOf('\'', i);
                if (end < 0) throw new IllegalArgumentException("unterminated single-quoted string");
                word.append(text, i, end);
                i = end + 1;
                inWord = true;
            } else if (c == '"') {
                i = doubleQuoted(text, i, word);
                inWord = true;
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) words.add(word.toString());
        return words;
    }

    /** Reads a double-quoted string from {@code i} (after its quote) into {@code word}; returns the index after it. */
    private static int doubleQuoted(String text, int i, StringBuilder word) {
        while (i < text.length()) {
            char c = text.charAt(i++);
            if (c == '"') return i;
            if (c == '\\' && i < text.length()) {
                char next = text.charAt(i);
                if ("$`\"\\".indexOf(next) >= 0) {
                    word.append(next);
                    i++;
                    continue;
                }
                if (next == '\n') {
                    i++;
                    continue;
                }
            }
            word.append(c);
        }
        throw new IllegalArgumentException("unterminated double-quoted string");
    }
}
