package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code muster remote}'s mistakes, found before any host is reached. */
class RemoteCommandUsageTest {
    @TempDir
    Path dir;

    @Test
    void aHostAndAManifestAreNeeded() {
        Cli cli = Cli.run("remote", "--", "site.yaml");

        assertThat(cli.exit()).isEqualTo(64);
        assertThat(cli.err()).startsWith("muster: expected DEST… -- MANIFEST: at least one host, then the manifest\n");
    }

    @Test
    void aBadDestinationOrANameGivenTwiceIsAUsageError() {
        assertThat(Cli.run("remote", "web1:99999", "--", "site.yaml"))
                .satisfies(cli -> assertThat(cli.exit()).isEqualTo(64))
                .satisfies(cli -> assertThat(cli.err()).startsWith("muster: DEST 'web1:99999': port 99999 is not between 1 and 65535\n"));
        assertThat(Cli.run("remote", "web1", "root@web1", "--", "site.yaml"))
                .satisfies(cli -> assertThat(cli.exit()).isEqualTo(64))
                .satisfies(cli -> assertThat(cli.err()).startsWith("muster: DEST 'root@web1': the host web1 is named twice"));
        assertThat(Cli.run("remote", "--cconns", 0, "web1", "--", "site.yaml").err()).startsWith("muster: --cconns must be at least 1, got 0\n");
    }

    @Test
    void withNoRuntimeToUploadOneLineSaysHowToBuildOne() throws Exception {
        Path notARuntime = Files.createDirectories(dir.resolve("jdk"));

        Cli cli = Cli.run("remote", "--runtime", notARuntime, "web1", "--", "site.yaml");

        assertThat(cli.exit()).isEqualTo(1);
        // in-process, muster runs from classes: the first thing missing is its jar
        assertThat(cli.err()).isEqualTo("muster: muster remote uploads the jar muster runs from, but this muster runs from classes "
                + "(build the jar: ./mvnw -pl cli -am package -DskipTests, then run ./muster)\n");
    }
}
