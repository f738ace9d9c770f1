package io.muster.engine.resource.exec;

import java.util.List;

/** A command to run: argv as given, or a string for {@code /bin/sh -c} when {@code shell} is set. */
record Command(List<String> argv, String text, boolean shell) {

    static Command of(Object spec, boolean shell) {
        if (spec instanceof List<?> list) {
            if (shell) throw new IllegalArgumentException("with shell: true, write the command as one string");
            if (list.isEmpty()) throw new IllegalArgumentException("command is empty");
            List<String> argv = list.stream().map(String::valueOf).toList();
            return new Command(argv, String.join(" ", argv), false);
        }
        String text = String.valueOf(spec);
        if (shell) {
            if (text.isBlank()) throw new IllegalArgumentException("command is empty");
            return new Command(List.of("/bin/sh", "-c", text), text, true);
        }
        String operator = CommandLine.shellSyntax(text);
        if (operator != null) {
            throw new IllegalArgumentException("'" + operator + "' is shell syntax; set shell: true to run through /bin/sh, or quote it");
        }
        return new Command(CommandLine.split(text), text, false);
    }

    @Override
    public String toString() {
        return text;
    }
}
