package io.muster.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.cli.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** examples/ccm's Choria CCM manifests, applied through the CLI as CCM applies them. */
class CcmExampleTest {
    private static final Path SITE = Path.of("ccm/site.yaml").toAbsolutePath();
    private static final Path MAINTENANCE = Path.of("ccm/maintenance.yaml").toAbsolutePath();

    @TempDir
    Path root;

    private Cli apply(String... extra) {
        String[] args = new String[extra.length + 5];
        args[0] = "apply";
        args[1] = SITE.toString();
        args[2] = "--data";
        args[3] = "root=" + root.resolve("app");
        args[4] = "--tmp-prefix";
        System.arraycopy(extra, 0, args, 5, extra.length);
        return Cli.run((Object[]) args);
    }

    private String mode(String file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve(file)));
    }

    @Test
    void theHierarchyPicksTheEnvironmentsWorkersAndEveryResourceIsWritten() throws IOException {
        Cli run = apply();
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(root.resolve("app/app.ini")).hasContent("[server]\nport = 8080\nworkers = 4");
        assertThat(mode("app")).as("0750").isEqualTo("rwxr-x---");
        assertThat(mode("app/app.ini")).as("a bare 0640").isEqualTo("rw-r-----");
        assertThat(root.resolve("app/.initialised")).hasContent("initialised");
        assertThat(root.resolve("app/conf.d/listen.conf")).as("a Jet template, its range over the upstreams")
                .hasContent("listen 8080\nworkers 4\nupstream 10.0.0.11:9000\nupstream 10.0.0.12:9000");
        assertThat(root.resolve("app/conf.d/README")).content().contains("for shop.");
        assertThat(root.resolve("app/check.sh")).content().contains("# every 30s").contains("test -f " + root.resolve("app/app.ini"));
    }

    @Test
    void anotherEnvironmentKeepsTheBaseData() {
        apply("--fact", "environment=staging");
        assertThat(root.resolve("app/app.ini")).content().contains("workers = 2");
    }

    @Test
    void aStrayFileInTheScaffoldIsPurgedAndTheNextRunChangesNothing() throws IOException {
        apply();
        Files.writeString(root.resolve("app/conf.d/old.conf"), "stale");
        apply();
        assertThat(root.resolve("app/conf.d/old.conf")).doesNotExist();
        assertThat(apply().out()).contains("changed 0,");
    }

    @Test
    void maintenanceRunsItsStepsInOrderRebuildingTheCacheOnlyWhenItsInputChanged() throws IOException {
        Path dir = root.resolve("maintenance");
        Cli first = Cli.run("apply", MAINTENANCE, "--data", "root=" + dir, "--data", "rotate=false", "--tmp-prefix");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(dir.resolve("cache")).hasContent("keep 7 days");
        assertThat(dir.resolve("rotated")).as("control if: Data.rotate").doesNotExist();
        Files.writeString(dir.resolve("cache"), "stale");
        Cli.run("apply", MAINTENANCE, "--data", "root=" + dir, "--tmp-prefix");
        assertThat(dir.resolve("rotated")).exists();
        assertThat(dir.resolve("cache")).as("refreshonly: nothing it subscribes to changed").hasContent("stale");
        Cli.run("apply", MAINTENANCE, "--data", "root=" + dir, "--data", "keep_days=30", "--tmp-prefix");
        assertThat(dir.resolve("cache")).hasContent("keep 30 days");
        Cli bad = Cli.run("apply", MAINTENANCE, "--data", "root=" + dir, "--data", "keep_days=soon", "--tmp-prefix");
        assertThat(bad.exit()).isNotZero();
        assertThat(bad.err()).contains("maintenance.yaml:8:3: key \"keep_days\" failed validation \"isInt(value)\"");
    }
}
