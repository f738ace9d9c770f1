package io.muster.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The one {@code muster} command. */
@Command(name = "muster", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Distributed, event-driven configuration management.",
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster validate site.yaml                     check a manifest, run nothing",
                "  muster plan site.yaml                         see what apply would change",
                "  muster apply site.yaml                        converge this host once",
                "  muster run site.yaml                          keep it converged",
                "  muster help apply                             apply's options, exit codes%n"})
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
        SUBCOMMANDS.put("agent", AgentCommand::new);
        SUBCOMMANDS.put("deploy", DeployCommand::new);
        SUBCOMMANDS.put("deploys", DeploysCommand::new);
        SUBCOMMANDS.put("rollback", RollbackCommand::new);
        SUBCOMMANDS.put("status", StatusCommand::new);
        SUBCOMMANDS.put("exports", ExportsCommand::new);
        SUBCOMMANDS.put("coordinator", CoordinatorCommand::new);
        SUBCOMMANDS.put("host", HostCommand::new);
        SUBCOMMANDS.put("remote", RemoteCommand::new);
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
        Settings settings = Settings.read(System.getenv());
        return root
                .setDefaultValueProvider(settings)
                .setExecutionStrategy(parsed -> {
                    Integer help = CommandLine.executeHelpRequest(parsed);
                    if (help != null) return help;
                    if (!settings.problems().isEmpty()) { // a bad setting is a usage mistake made ahead of time
                        PrintWriter err = parsed.commandSpec().commandLine().getErr();
                        settings.problems().forEach(problem -> err.println("muster: " + problem));
                        err.flush();
                        return USAGE;
                    }
                    CommandLine.ParseResult command = parsed.subcommand();
                    if (command != null && command.hasMatchedOption("--debug")) LogSetup.debug();
                    else if (command != null && command.hasMatchedOption("--quiet")) LogSetup.quiet();
                    return new CommandLine.RunLast().execute(parsed);
                })
                .setExecutionExceptionHandler(new Failures())
                .setParameterExceptionHandler((e, unmatched) -> {
                    PrintWriter err = e.getCommandLine().getErr();
                    err.println("muster: " + e.getMessage());
                    suggest(e, err);
                    err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
                    return USAGE;
                });
    }

    /**
     * Picocli's suggestions: for a mistyped command only the closest of the (up to three) it finds, which reads as the
     * answer ("Did you mean: muster apply?"); for a mistyped option those sharing its first letters.
     */
    private static void suggest(CommandLine.ParameterException e, PrintWriter err) {
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.isUnknownOption()
                && !unmatched.getSuggestions().isEmpty()) {
            err.println("Did you mean: " + e.getCommandLine().getCommandSpec().qualifiedName() + " " + unmatched.getSuggestions().getFirst() + "?");
        } else {
            CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        }
    }

    /**
     * The version and commit the build wrote into version.properties (cli/src/build/version.sh), and the Java runtime running it:
     * a package bundles its own, and a bug report should say which one ran.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            Properties build = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                build.load(in);
            }
            return new String[] {"muster " + build.getProperty("version") + " (commit " + build.getProperty("commit") + ")",
                    "Java " + Runtime.version() + " at " + System.getProperty("java.home")};
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
