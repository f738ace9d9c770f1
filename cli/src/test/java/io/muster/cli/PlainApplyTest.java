package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A plain {@code muster apply} read without picocli reads as picocli reads it, settings included; whatever it does
 * not read plainly is left to picocli, whose messages and exit codes stay the only ones; and both run alike.
 */
class PlainApplyTest {
    @TempDir
    Path dir;

    private Path site;
    private Map<String, String> environment;

    @BeforeEach
    void setUp() throws IOException {
        site = new Manifests(dir).write("site.yaml", """
                data: {greeting: hello}
                resources:
                  - file:
                      - ROOT/motd: {content: "${ data.greeting }\\n", mode: "0644"}
                """);
        environment = new HashMap<>(Map.of("MUSTER_CONFIG", Files.writeString(dir.resolve("muster.conf"), "").toString()));
    }

    @Test
    void readsEveryFlagOfApplyAsPicocliDoes() {
        assertSameReading("apply", site);
        assertSameReading("apply", site, "--noop", "--diff", "--detailed-exitcodes");
        assertSameReading("apply", site, "--no-cache", "--debug");
        assertSameReading("apply", "--data", "a=1", "--data", "b.c=2", site, "--fact", "os.family=debian", "--facts", dir.resolve("f.yaml"));
        assertSameReading("apply", site, "--data=a=1", "--output=json", "--color", "never", "--prefix", "state", "--wait-lock", "2.5",
                "--sema", "3", "--max-apply-depth=4", "-q");
        assertSameReading("apply", site, "--tmp-prefix", "--verbose", "--debug", "--health-check-only", "--output", "text");
        assertSameReading("apply", "--quiet", "--color=always", site);
        assertSameReading("apply", site, "-v", "--sema=+2", "--wait-lock", "1e1");
    }

    @Test
    void takesSettingsAsPicocliDoesAndTheCommandLineOverThem() throws IOException {
        environment.put("MUSTER_CONFIG", Files.writeString(dir.resolve("muster.conf"), """
                prefix = %s
                color = always
                sema = 2
                wait-lock = 1.5
                max-apply-depth = 3
                facts = %s
                """.formatted(dir.resolve("from-file"), dir.resolve("facts.yaml"))).toString());
        assertSameReading("apply", site);
        assertSameReading("apply", site, "--prefix", "flag", "--color", "never", "--sema", "5", "--wait-lock", "0", "--max-apply-depth", "9");
        assertSameReading("apply", site, "--tmp-prefix");
        environment.put("MUSTER_PREFIX", dir.resolve("from-env").toString());
        environment.put("MUSTER_COLOR", "never");
        environment.put("MUSTER_SEMA", "");
        assertSameReading("apply", site);
        assertSameReading("apply", site, "--prefix", "flag");
    }

    @Test
    void leavesHelpUsageMistakesAndBadSettingsToPicocli() {
        assertLeftToPicocli(0, "apply", "--help");
        assertLeftToPicocli(0, "apply", site, "-h");
        assertLeftToPicocli(0, "apply", "-V");
        assertLeftToPicocli(64, "apply");
        assertLeftToPicocli(64, "apply", site, "--nope");
        assertLeftToPicocli(64, "apply", site, site);
        assertLeftToPicocli(64, "apply", site, "-qv");
        assertLeftToPicocli(64, "apply", site, "-q", "--verbose");
        assertLeftToPicocli(64, "apply", site, "--prefix", "p", "--tmp-prefix");
        assertLeftToPicocli(64, "apply", site, "--noop", "--health-check-only");
        assertLeftToPicocli(64, "apply", site, "--noop", "--noop");
        assertLeftToPicocli(64, "apply", site, "--output", "json", "--output", "text");
        assertLeftToPicocli(64, "apply", site, "--sema", "0");
        assertLeftToPicocli(64, "apply", site, "--sema", "many");
        assertLeftToPicocli(64, "apply", site, "--sema", "-1");
        assertLeftToPicocli(64, "apply", site, "--max-apply-depth", "0");
        assertLeftToPicocli(64, "apply", site, "--wait-lock", "NaN");
        assertLeftToPicocli(64, "apply", site, "--data", "novalue");
        assertLeftToPicocli(64, "apply", site, "--fact", "=x");
        assertLeftToPicocli(64, "apply", site, "--output", "xml");
        assertLeftToPicocli(64, "apply", site, "--color", "ALWAYS");
        assertLeftToPicocli(64, "apply", site, "--prefix");
        assertLeftToPicocli(64, "apply", site, "--data", "--noop");
        environment.put("MUSTER_SEMA", "zero");
        assertLeftToPicocli(64, "apply", site);
        environment.remove("MUSTER_SEMA");
        environment.put("MUSTER_SEMA", "99999999999"); // a whole number, but no int
        assertLeftToPicocli(64, "apply", site);
        environment.remove("MUSTER_SEMA");

        assertThat(plain("apply", "@args")).isEmpty(); // an argument file
        assertThat(plain("apply", "--", site)).isEmpty();
        assertThat(plain("apply", site, "--noop=true")).isEmpty();
        assertThat(plain("plan", site)).isEmpty();
        assertThat(plain("help", "apply")).isEmpty();
        assertThat(plain()).isEmpty();
    }

    @Test
    void knowsEveryFlagOfApply() {
        CommandLine picocli = Main.commandLine(Settings.read(environment), "apply");
        Set<String> flags = picocli.getSubcommands().get("apply").getCommandSpec().options().stream()
                .flatMap(option -> List.of(option.names()).stream())
                .filter(name -> !Set.of("-h", "--help", "-V", "--version").contains(name))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> plain = new TreeSet<>(PlainApply.SWITCHES);
        plain.addAll(PlainApply.VALUED);
        assertThat(plain).as("a flag of apply that the plain reading does not know leaves every run with it to picocli, and slow")
                .isEqualTo(flags);
        List<String> switches = picocli.getSubcommands().get("apply").getCommandSpec().options().stream()
                .filter(option -> option.arity().max() == 0).map(OptionSpec::longestName).toList();
        assertThat(PlainApply.SWITCHES).containsAll(switches.stream().filter(name -> !Set.of("--help", "--version").contains(name)).toList());
    }

    @Test
    void runsAsPicocliRunsIt() throws IOException {
        assertSameRun("apply", site, "--noop", "--diff", "--tmp-prefix", "--color", "never");
        assertSameRun("apply", site, "--noop", "--detailed-exitcodes", "--tmp-prefix", "-v", "--data", "greeting=hi");
        assertSameRun("apply", site, "--noop", "--tmp-prefix", "--output", "json", "--quiet");
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "resources:\n  - file: [{/x: {mode: 12}}]\n");
        assertSameRun("apply", broken, "--tmp-prefix");
        assertSameRun("apply", dir.resolve("missing.yaml"), "--tmp-prefix");
    }

    private Optional<ApplyCommand> plain(Object... args) {
        return PlainApply.parse(strings(args), Settings.read(environment));
    }

    private void assertSameReading(Object... args) {
        Optional<ApplyCommand> plain = plain(args);
        assertThat(plain).as("read plainly: %s", strings(args)).isPresent();
        CommandLine picocli = Main.commandLine(Settings.read(environment), strings(args).toArray(String[]::new));
        picocli.parseArgs(strings(args).toArray(String[]::new));
        ApplyCommand read = picocli.getSubcommands().get("apply").getCommand();
        assertThat(reading(plain.get())).as("%s", strings(args)).isEqualTo(reading(read));
    }

    private void assertLeftToPicocli(int exit, Object... args) {
        assertThat(plain(args)).as("read plainly: %s", strings(args)).isEmpty();
        String[] strings = strings(args).toArray(String[]::new);
        CommandLine picocli = Main.commandLine(Settings.read(environment), strings);
        StringWriter err = new StringWriter();
        picocli.setOut(new PrintWriter(new StringWriter(), true)).setErr(new PrintWriter(err, true));
        assertThat(picocli.execute(strings)).as("%s: %s", strings(args), err).isEqualTo(exit);
    }

    private void assertSameRun(Object... args) {
        String[] strings = strings(args).toArray(String[]::new);
        StringWriter plainOut = new StringWriter();
        StringWriter plainErr = new StringWriter();
        int plainExit = PlainApply.run(plain(args).orElseThrow(), new PrintWriter(plainOut, true), new PrintWriter(plainErr, true));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine picocli = Main.commandLine(Settings.read(environment), strings)
                .setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
        assertThat(plainExit).as("%s", strings(args)).isEqualTo(picocli.execute(strings));
        assertThat(timeless(plainOut)).isEqualTo(timeless(out));
        assertThat(timeless(plainErr)).isEqualTo(timeless(err));
        assertThat(out + "" + err).as("what both printed").isNotEmpty();
    }

    /** What a run prints, its durations blanked. */
    private static String timeless(StringWriter printed) {
        return printed.toString().replaceAll("\\d+ms", "Nms").replaceAll("\"duration_ms\": \\d+", "\"duration_ms\": N");
    }

    /** What a run depends on of what was read. */
    private static List<Object> reading(ApplyCommand apply) {
        List<Object> reading = new ArrayList<>();
        ManifestOptions m = apply.manifest;
        reading.addAll(List.of(m.manifest, m.data, m.facts, String.valueOf(m.factsFile), m.maxApplyDepth, m.debug));
        RunFlags r = apply.run;
        reading.addAll(List.of(r.sema(), r.output, r.color, r.prefix.tmp, r.prefix.tmp ? "temporary" : String.valueOf(r.prefix.dir),
                r.loudness.quiet, r.loudness.verbose));
        reading.addAll(List.of(apply.locking.waitSeconds, apply.noop, apply.healthCheckOnly, apply.diff, apply.detailed, apply.cache.off));
        return reading;
    }

    private static List<String> strings(Object... args) {
        return List.of(args).stream().map(String::valueOf).toList();
    }
}
