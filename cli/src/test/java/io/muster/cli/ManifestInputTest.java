package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What muster is given besides the manifest's resources: --data and --fact, and --debug's promise. */
class ManifestInputTest {
    @TempDir
    Path dir;

    @Test
    void aMalformedAssignmentIsAUsageErrorNamingTheExpectedForm() {
        Path site = new Manifests(dir).write("site.yaml", "resources: []\n");
        for (String bad : List.of("x", "..=1", "=1", "a..b=1")) {
            for (String flag : List.of("--data", "--fact")) {
                Cli cli = Cli.run("validate", site, flag, bad);
                assertThat(cli.exit()).as(flag + " " + bad).isEqualTo(64);
                assertThat(cli.err()).as(flag + " " + bad).isEqualTo("muster: " + flag + " " + bad + ": expected KEY=VALUE, where KEY is"
                        + " a name or names joined by dots (port, os.family), at most 200 deep\nTry 'muster validate --help'.\n");
            }
        }
    }

    @Test
    void debugPrintsTheStackTraceBehindAProblemThatAnExceptionCaused() {
        Path site = new Manifests(dir).write("site.yaml", """
                resources:
                  - msg:
                      - hi: {message: hi, control: {if: "%strue"}}
                """.formatted("!".repeat(20_000)));
        Cli plain = Cli.run("validate", site);
        assertThat(plain.exit()).isEqualTo(1);
        assertThat(plain.err()).isEqualTo(site + ":3:9: msg#hi: nested too deeply to compile (the stack overflowed)\n");

        Cli debug = Cli.run("validate", site, "--debug");
        assertThat(debug.exit()).isEqualTo(1);
        assertThat(debug.err()).startsWith(plain.err() + "java.lang.StackOverflowError").contains("\tat ");
    }
}
