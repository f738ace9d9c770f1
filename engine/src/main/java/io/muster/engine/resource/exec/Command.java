package io.muster.engine.resource.exec;

import java.util.List;

/**
 * A command to run: argv as given, or a string for {@code /bin/sh -c} when {@code shell} is set. A
 * sensitive command never shows its text: messages and logs say "the command (sensitive)".
 */
record Command(List<String> argv, String text, boolean shell, boolean sensitive) {

    static Command of(Object spec, boolean shell, boolean sensitive) {
        if (spec instanceof List<?> list) {
            if (shell) throw new IllegalArgumentException("with shell: true, write the command as one string");
            if (list.isEmpty()) throw new IllegalArgumentException("command is empty");
            List<String> argv = list.stream().map(String::valueOf).toList();
            return new Command(argv, String.join(" ", argv), false, sensitive);
        }
        String text = String.valueOf(spec);
        if (shell) {
            if (text.isBlank()) throw new IllegalArgumentException("command is empty");
            return new Command(List.of("/bin/sh", "-c", text), text, true, sensitive);
        }
        String operator = CommandLine.shellSyntax(text);
        if (operator != null) {
            throw new IllegalArgumentException("'" + operator + "' is shell syntax; set shell: true to run through /bin/sh, or quote it");
        }
        return new Command(CommandLine.split(text), text, false, sensitive);
    }

    /** How messages name it: {@code 'make install'}, or {@code the command (sensitive)}. */
    String quoted() {
        return sensitive ? "the command (sensitive)" : "'" + text + "'";
    }

    @Override
    public String toString() {
        return sensitive ? "(sensitive)" : text;
    }
}
