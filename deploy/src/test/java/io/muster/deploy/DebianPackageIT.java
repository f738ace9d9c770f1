package io.muster.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The .deb as an operator meets it: installed with dpkg into this machine (so the test needs root, as CI has),
 * run with no Java of the system's, and purged without a trace. Paths of the package that already exist (a root
 * run's /var/lib/muster) are moved aside for the test and put back after it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DebianPackageIT {
    private static final Path DEB_DIRECTORY = Path.of(System.getProperty("muster.deb.directory", "target"));
    /** Everything the package installs or creates, which a purge must remove. */
    private static final List<Path> PACKAGE_PATHS = List.of(Path.of("/usr/bin/muster"), Path.of("/usr/lib/muster"),
            Path.of("/etc/muster"), Path.of("/var/lib/muster"), Path.of("/var/cache/muster"),
            Path.of("/usr/lib/systemd/system/muster-agent.service"), Path.of("/usr/lib/systemd/system/muster-coordinator.service"),
            Path.of("/usr/share/bash-completion/completions/muster"), Path.of("/usr/share/zsh/vendor-completions/_muster"),
            Path.of("/usr/share/man/man1/muster.1.gz"), Path.of("/usr/share/doc/muster"));
    /** The environment of a user with no Java at all: a PATH of only what the launcher calls. */
    private static final String[] NO_JAVA = {"stat", "mkdir", "rm"};

    private static final List<Path> movedAside = new ArrayList<>();

    @TempDir
    static Path tmp;

    @BeforeAll
    static void installs() throws IOException, InterruptedException {
        if (!"root".equals(System.getProperty("user.name"))) {
            fail("DebianPackageIT installs the .deb with dpkg -i and needs root (CI runs as root); run ./mvnw verify as root "
                    + "or skip integration tests with -DskipITs");
        }
        if (run(List.of("dpkg-query", "-W", "muster"), Map.of()).exit() == 0) {
            fail("a muster package is installed on this machine; the test would replace and purge it (dpkg --purge muster first)");
        }
        for (Path path : PACKAGE_PATHS) {
            if (Files.exists(path)) {
                Files.move(path, aside(path));
                movedAside.add(path);
            }
        }
        Result install = run(List.of("dpkg", "-i", deb().toString()), Map.of());
        assertThat(install.exit()).as("dpkg -i: %s", install.output()).isZero();
    }

    @AfterAll
    static void purgesAndPutsBackWhatWasThere() throws IOException, InterruptedException {
        try {
            if (run(List.of("dpkg-query", "-W", "muster"), Map.of()).exit() == 0) run(List.of("dpkg", "--purge", "muster"), Map.of());
        } finally {
            for (Path path : movedAside) {
                if (!Files.exists(path)) Files.move(aside(path), path);
            }
        }
    }

    @Test
    @Order(1)
    void versionRunsTheBundledRuntimeEvenWithAnotherJavaOnPathAndInJavaHome() throws Exception {
        Path otherJdk = Path.of(System.getProperty("java.home")); // the JDK running Maven, not the package's runtime
        Result version = run(List.of("/usr/bin/muster", "--version"),
                Map.of("PATH", otherJdk.resolve("bin") + ":/usr/bin:/bin", "JAVA_HOME", otherJdk.toString()));

        assertThat(version.exit()).as(version.output()).isZero();
        assertThat(version.output()).matches("""
                muster \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{7,}(-dirty)?|unknown)\\)
                Java \\S+ at /usr/lib/muster/runtime
                """);
    }

    @Test
    @Order(2)
    void theInstalledRuntimeMatchesTheListingTheAgentlessModeVerifiesCopiesWith() throws Exception {
        Result check = run(List.of("sha256sum", "--check", "--quiet", "muster-runtime.sha256"), Map.of(), Path.of("/usr/lib/muster/runtime"));

        assertThat(check.exit()).as(check.output()).isZero();
    }

    @Test
    @Order(3)
    void appliesAManifestWithNoJavaOnTheSystem() throws Exception {
        Path manifest = tmp.resolve("site.yaml");
        Files.writeString(manifest, """
                resources:
                  - file:
                      - %1$s/motd: {content: "installed from the package\\n", mode: "0644"}
                """.formatted(tmp));

        Result apply = run(List.of("/usr/bin/muster", "apply", manifest.toString()), Map.of("PATH", noJavaPath().toString()));

        assertThat(apply.exit()).as(apply.output()).isZero();
        assertThat(tmp.resolve("motd")).hasContent("installed from the package");
    }

    @Test
    @Order(4)
    void installsManPagesAndCompletionForEveryCommand() throws Exception {
        if (Files.isExecutable(Path.of("/usr/bin/man"))) {
            Result man = run(List.of("man", "-w", "muster-apply"), Map.of("PATH", "/usr/bin:/bin"));
            assertThat(man.output().strip()).isEqualTo("/usr/share/man/man1/muster-apply.1.gz");
        }
        for (String command : List.of("muster", "muster-apply", "muster-run", "muster-agent", "muster-coordinator")) {
            assertThat(Path.of("/usr/share/man/man1/" + command + ".1.gz")).isRegularFile();
        }
        Result bash = run(List.of("bash", "-c", "source /usr/share/bash-completion/completions/muster && complete -p muster"),
                Map.of("PATH", "/usr/bin:/bin"));
        assertThat(bash.output()).contains("-F _complete_muster muster");
        assertThat(Path.of("/usr/share/zsh/vendor-completions/_muster")).content().startsWith("#compdef muster");
    }

    @Test
    @Order(5)
    void unitsReadTheirEnvironmentFilesAndPassTheirOptions() throws Exception {
        Path agent = Path.of("/usr/lib/systemd/system/muster-agent.service");
        Path coordinator = Path.of("/usr/lib/systemd/system/muster-coordinator.service");
        if (Files.isExecutable(Path.of("/usr/bin/systemd-analyze"))) {
            Result verify = run(List.of("systemd-analyze", "verify", agent.toString(), coordinator.toString()), Map.of("PATH", "/usr/bin:/bin"));
            assertThat(verify.exit()).as(verify.output()).isZero();
        }
        assertThat(agent).content().contains("EnvironmentFile=-/etc/muster/agent.env", "ExecStart=/usr/bin/muster agent $MUSTER_AGENT_OPTS",
                "StateDirectory=muster", "Restart=on-failure").doesNotContain("ProtectSystem");
        assertThat(coordinator).content().contains("EnvironmentFile=-/etc/muster/coordinator.env",
                "ExecStart=/usr/bin/muster coordinator $MUSTER_COORDINATOR_OPTS", "StateDirectory=muster", "ProtectSystem=strict");
        assertThat(run(List.of("dpkg-query", "-W", "-f", "${Conffiles}", "muster"), Map.of()).output())
                .contains("/etc/muster/agent.env", "/etc/muster/coordinator.env");
        assertThat(Files.getPosixFilePermissions(Path.of("/var/lib/muster"))).hasToString("[OWNER_READ, OWNER_WRITE, OWNER_EXECUTE]");
    }

    @Test
    @Order(6)
    void purgeLeavesNothingOfThePackage() throws Exception {
        Result purge = run(List.of("dpkg", "--purge", "muster"), Map.of());

        assertThat(purge.exit()).as(purge.output()).isZero();
        assertThat(PACKAGE_PATHS).allSatisfy(path -> assertThat(path).doesNotExist());
    }

    private static Path deb() throws IOException {
        try (DirectoryStream<Path> debs = Files.newDirectoryStream(DEB_DIRECTORY, "muster_*_amd64.deb")) {
            for (Path deb : debs) return deb;
        }
        throw new IOException("no muster_*_amd64.deb in " + DEB_DIRECTORY + " (built by ./mvnw -pl deploy -am package)");
    }

    private static Path aside(Path path) {
        return path.resolveSibling(path.getFileName() + ".before-DebianPackageIT");
    }

    /** A directory with only the tools the launcher runs, so that no java can be found on PATH. */
    private static Path noJavaPath() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        for (String tool : NO_JAVA) {
            if (!Files.exists(bin.resolve(tool))) Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool).toRealPath());
        }
        return bin;
    }

    /** Runs {@code command} with only {@code environment} (no inherited JAVA_HOME or PATH), stdout and stderr together. */
    private static Result run(List<String> command, Map<String, String> environment) throws IOException, InterruptedException {
        return run(command, environment, tmp);
    }

    private static Result run(List<String> command, Map<String, String> environment, Path directory) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(environment);
        if (!environment.containsKey("PATH")) builder.environment().put("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            fail(String.join(" ", command) + " did not end in 2 minutes");
        }
        return new Result(process.exitValue(), output);
    }

    private record Result(int exit, String output) {}
}
