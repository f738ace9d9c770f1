package io.muster.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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

    /** Every subcommand, made when asked: the help command is picocli's, which a plain apply never loads. */
    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> subcommands = new LinkedHashMap<>();
        subcommands.put("apply", ApplyCommand::new);
        subcommands.put("run", RunCommand::new);
        subcommands.put("plan", PlanCommand::new);
        subcommands.put("validate", ValidateCommand::new);
        subcommands.put("graph", GraphCommand::new);
        subcommands.put("check", CheckCommand::new);
        subcommands.put("agent", AgentCommand::new);
        subcommands.put("deploy", DeployCommand::new);
        subcommands.put("deploys", DeploysCommand::new);
        subcommands.put("rollback", RollbackCommand::new);
        subcommands.put("status", StatusCommand::new);
        subcommands.put("exports", ExportsCommand::new);
        subcommands.put("coordinator", CoordinatorCommand::new);
        subcommands.put("host", HostCommand::new);
        subcommands.put("remote", RemoteCommand::new);
        subcommands.put("help", CommandLine.HelpCommand::new);
        return subcommands;
    }

    public static void main(String[] args) {
        try {
            Settings settings = Settings.read(System.getenv());
            Optional<ApplyCommand> plain = PlainApply.parse(List.of(args), settings);
            System.exit(plain.isPresent() ? PlainApply.run(plain.get(), PlainApply.stdout(), PlainApply.stderr())
                    : commandLine(settings, args).execute(args));
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
        return commandLine(Settings.read(System.getenv()), args);
    }

    /** As {@link #commandLine(String...)}, flags missing from {@code args} taking their values from {@code settings}. */
    static CommandLine commandLine(Settings settings, String... args) {
        CommandLine root = new CommandLine(new Main());
        Map<String, Supplier<Object>> subcommands = subcommands();
        Supplier<Object> invoked = args.length > 0 && !args[0].equals("help") ? subcommands.get(args[0]) : null;
        if (invoked != null) root.addSubcommand(args[0], invoked.get());
        else subcommands.forEach((name, command) -> root.addSubcommand(name, command.get()));
        return root
                .setDefaultValueProvider(new SettingDefaults(settings))
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
            // cmd is the subcommand that threw, whose option --debug is
            return internalError(e, cmd.getErr(), cmd.getParseResult().hasMatchedOption("--debug"));
        }
    }

    /** What an unexpected exception prints, on either path; the exit code 1. */
    static int internalError(Exception e, PrintWriter err, boolean debug) {
        err.println("muster: internal error: " + e);
        if (debug) e.printStackTrace(err);
        else err.println("(run again with --debug for the stack trace)");
        return 1;
    }
}
