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
        CommandLine.ShellSyntax syntax = CommandLine.shellSyntax(text);
        if (syntax != null) { // without a shell it would reach the program as it is: a literal $HOME, a file named b for a>b
            String what = sensitive ? "the command has shell syntax (" + syntax.meaning() + "), and runs"
                    : "'" + syntax.text() + "' is shell syntax (" + syntax.meaning() + "), and this command runs";
            throw new IllegalArgumentException(what + " without a shell: add shell: true, or put it in single quotes to pass it as it is");
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
