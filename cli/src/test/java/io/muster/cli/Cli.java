package io.muster.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the muster command in-process, capturing what it prints; shared with the examples tests. */
public record Cli(int exit, String out, String err) {

    public static Cli run(Object... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] strings = new String[args.length];
        for (int i = 0; i < args.length; i++) strings[i] = String.valueOf(args[i]);
        CommandLine cmd = Main.commandLine(strings);
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(strings);
        return new Cli(exit, out.toString(), err.toString());
    }
}
