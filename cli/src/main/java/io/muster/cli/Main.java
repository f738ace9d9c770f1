package io.muster.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The one {@code muster} command. */
@Command(name = "muster", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Distributed, event-driven configuration management.",
        subcommands = {ApplyCommand.class, PlanCommand.class, ValidateCommand.class, GraphCommand.class,
                CommandLine.HelpCommand.class})
public final class Main {
    /** Usage mistakes get their own exit code, clear of the detailed exit codes 0, 2, 4 and 6. */
    static final int USAGE = 64;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        return new CommandLine(new Main())
                .setExecutionStrategy(parsed -> {
                    if (parsed.subcommand() != null && parsed.subcommand().hasMatchedOption("--debug")) LogSetup.debug();
                    return new CommandLine.RunLast().execute(parsed);
                })
                .setExecutionExceptionHandler(new Failures())
                .setParameterExceptionHandler((e, args) -> {
                    e.getCommandLine().getErr().println("muster: " + e.getMessage());
                    e.getCommandLine().getErr().println("Try 'muster " + e.getCommandLine().getCommandName() + " --help'.");
                    return USAGE;
                });
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"muster " + (version == null ? "development build" : version)};
        }
    }

    /** An unexpected exception is a bug: one line for the user, the stack trace only with --debug. */
    private static final class Failures implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
            cmd.getErr().println("muster: internal error: " + e);
            if (parsed.hasMatchedOption("--debug")) e.printStackTrace(cmd.getErr());
            else cmd.getErr().println("(run again with --debug for the stack trace)");
            return 1;
        }
    }
}
