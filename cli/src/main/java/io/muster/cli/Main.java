package io.muster.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The one {@code muster} command. */
@Command(name = "muster", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Distributed, event-driven configuration management.")
public final class Main {
    /** Usage mistakes get their own exit code, clear of the detailed exit codes 0, 2, 4 and 6. */
    static final int USAGE = 64;

    private static final Map<String, Supplier<Object>> SUBCOMMANDS = new LinkedHashMap<>();

    static {
        SUBCOMMANDS.put("apply", ApplyCommand::new);
        SUBCOMMANDS.put("run", RunCommand::new);
        SUBCOMMANDS.put("plan", PlanCommand::new);
        SUBCOMMANDS.put("validate", ValidateCommand::new);
        SUBCOMMANDS.put("graph", GraphCommand::new);
        SUBCOMMANDS.put("check", CheckCommand::new);
        SUBCOMMANDS.put("deploy", DeployCommand::new);
        SUBCOMMANDS.put("deploys", DeploysCommand::new);
        SUBCOMMANDS.put("rollback", RollbackCommand::new);
        SUBCOMMANDS.put("status", StatusCommand::new);
        SUBCOMMANDS.put("coordinator", CoordinatorCommand::new);
        SUBCOMMANDS.put("help", CommandLine.HelpCommand::new);
    }

    public static void main(String[] args) {
        try {
            System.exit(commandLine(args).execute(args));
        } catch (Error e) { // picocli hands only exceptions to Failures: a stack overflow or OOM is still one line
            System.err.println("muster: internal error: " + e);
            if (List.of(args).contains("--debug")) e.printStackTrace();
            System.exit(1);
        }
    }

    /**
     * The command line for {@code args}. Picocli's classes predate class-data sharing, so building a
     * command's model costs about 20 ms per subcommand on every start: only the invoked one is built
     * (all of them for help, usage errors and a bare {@code muster}).
     */
    public static CommandLine commandLine(String... args) {
        CommandLine root = new CommandLine(new Main());
        Supplier<Object> invoked = args.length > 0 && !args[0].equals("help") ? SUBCOMMANDS.get(args[0]) : null;
        if (invoked != null) root.addSubcommand(args[0], invoked.get());
        else SUBCOMMANDS.forEach((name, command) -> root.addSubcommand(name, command.get()));
        return root
                .setExecutionStrategy(parsed -> {
                    if (parsed.subcommand() != null && parsed.subcommand().hasMatchedOption("--debug")) LogSetup.debug();
                    return new CommandLine.RunLast().execute(parsed);
                })
                .setExecutionExceptionHandler(new Failures())
                .setParameterExceptionHandler((e, unmatched) -> {
                    e.getCommandLine().getErr().println("muster: " + e.getMessage());
                    e.getCommandLine().getErr().println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
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
            if (cmd.getParseResult().hasMatchedOption("--debug")) e.printStackTrace(cmd.getErr()); // --debug is a subcommand's
            else cmd.getErr().println("(run again with --debug for the stack trace)");
            return 1;
        }
    }
}
