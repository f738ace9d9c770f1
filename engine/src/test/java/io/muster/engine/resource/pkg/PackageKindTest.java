package io.muster.engine.resource.pkg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.report.TextReport;
import io.muster.engine.run.LiveRun;
import io.muster.engine.run.RunOptions;
import io.muster.engine.testing.LocalAptRepository;
import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The package kind on this host's real dpkg and apt, installing from a local repository of tiny packages. */
class PackageKindTest {
    private static final Path HISTORY = Path.of("/var/log/apt/history.log");

    @TempDir
    static Path shared;
    private static LocalAptRepository repo;

    @TempDir
    Path dir;

    private Manifests manifests;
    private LiveRun live;

    @BeforeAll
    static void repository() throws Exception {
        repo = LocalAptRepository.publish(shared.resolve("repo"), "hello=1.0", "hello=2.0", "lib=1.0", "tool=1.0:lib", "other=1.0");
    }

    @AfterAll
    static void unpublish() throws Exception {
        if (repo != null) repo.close();
    }

    @BeforeEach
    void manifests() {
        manifests = new Manifests(dir);
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (live != null) live.close();
        repo.clean();
    }

    private String hello() {
        return repo.name("hello");
    }

    /** The manifest managing {@code names} with {@code ensure}. */
    private String manifest(String ensure, String... names) {
        StringBuilder yaml = new StringBuilder("resources:\n  - package:\n");
        for (String name : names) yaml.append("      - ").append(repo.name(name)).append(": {ensure: ").append(ensure).append("}\n");
        return yaml.toString();
    }

    private ResourceReport apply(String yaml, String name) throws Exception {
        return Manifests.resource(manifests.apply(yaml), "package#" + repo.name(name));
    }

    /** dpkg's word for the package: its version when installed, else its status ({@code rc}) or absent. */
    private String installed(String name) throws Exception {
        Installed db = new Apt().query();
        return db.describe(repo.name(name));
    }

    private static String details(ResourceReport r) {
        StringWriter text = new StringWriter();
        new TextReport(new PrintWriter(text), true).resource(r);
        return text.toString();
    }

    /** apt transactions in the history log that touched this test's packages. */
    private long transactions() throws IOException {
        if (!Files.exists(HISTORY)) return 0;
        return Files.readAllLines(HISTORY).stream().filter(l -> l.startsWith("Commandline: ") && l.contains(repo.name(""))).count();
    }

    @Test
    void installsAVersionUpgradesToLatestDowngradesAndRemoves() throws Exception {
        ResourceReport pinned = apply(manifest("\"1.0\"", "hello"), "hello");
        assertThat(pinned.status()).isEqualTo(Status.CHANGED);
        assertThat(details(pinned)).contains(hello() + " absent -> 1.0");
        assertThat(Files.readString(Path.of("/usr/share/muster-test", hello()))).isEqualTo("1.0\n");

        assertThat(details(apply(manifest("latest", "hello"), "hello"))).contains(hello() + " 1.0 -> 2.0");
        assertThat(installed("hello")).isEqualTo("2.0");
        assertThat(apply(manifest("latest", "hello"), "hello").status()).isEqualTo(Status.STABLE);

        assertThat(details(apply(manifest("\"1.0\"", "hello"), "hello"))).contains(hello() + " 2.0 -> 1.0");
        assertThat(apply(manifest("present", "hello"), "hello").status()).isEqualTo(Status.STABLE);
        assertThat(apply(manifest("installed", "hello"), "hello").status()).isEqualTo(Status.STABLE);
        assertThat(apply(manifest("present", "hello:all"), "hello:all").status()).isEqualTo(Status.STABLE); // dpkg says hello

        assertThat(details(apply(manifest("absent", "hello"), "hello"))).contains(hello() + " 1.0 -> config-files");
        assertThat(Path.of("/usr/share/muster-test", hello())).doesNotExist();
        assertThat(Path.of("/etc/muster-test", hello() + ".conf")).exists();
        assertThat(apply(manifest("absent", "hello"), "hello").status()).isEqualTo(Status.STABLE);

        assertThat(details(apply(manifest("purged", "hello"), "hello"))).contains(hello() + " config-files -> absent");
        assertThat(Path.of("/etc/muster-test", hello() + ".conf")).doesNotExist();
        assertThat(apply(manifest("purged", "hello"), "hello").status()).isEqualTo(Status.STABLE);
    }

    @Test
    void presentInstallsAptsCandidateWithItsDependencies() throws Exception {
        ResourceReport tool = apply(manifest("present", "tool"), "tool");
        assertThat(tool.changedAttributes()).containsExactlyInAnyOrder(repo.name("tool"), repo.name("lib"));
        assertThat(installed("lib")).isEqualTo("1.0");
        assertThat(apply(manifest("present", "hello"), "hello").changes().getFirst().to()).isEqualTo("2.0");
    }

    @Test
    void aMissingPackageOrVersionFailsNamingItAndWhatAptSaid() throws Exception {
        ResourceReport missing = apply(manifest("present", "nosuch"), "nosuch");
        assertThat(missing.status()).isEqualTo(Status.FAILED);
        assertThat(missing.error()).contains("package '" + repo.name("nosuch") + "' is not in this host's apt sources")
                .contains("apt-get said: E: Unable to locate package " + repo.name("nosuch"));

        ResourceReport version = apply(manifest("\"9.9\"", "hello"), "hello");
        assertThat(version.status()).isEqualTo(Status.FAILED);
        assertThat(version.error()).contains("version 9.9 of package '" + hello() + "' is not in this host's apt sources")
                .contains("E: Version '9.9' for '" + hello() + "' was not found");
        assertThat(installed("hello")).isEqualTo("absent");
    }

    @Test
    void aGroupWithAMissingPackageChangesNothing() throws Exception {
        ResourceReport group = apply(manifest("present", "hello", "nosuch", "other"), "hello");
        assertThat(group.status()).isEqualTo(Status.FAILED);
        assertThat(group.error()).contains("package '" + repo.name("nosuch") + "' is not in this host's apt sources");
        assertThat(installed("hello")).isEqualTo("absent");
        assertThat(installed("other")).isEqualTo("absent");
    }

    @Test
    void noopReportsWhatWouldChangeAndChangesNothing() throws Exception {
        apply(manifest("\"1.0\"", "hello"), "hello");
        Report plan = manifests.plan(manifest("latest", "hello") + manifest("present", "tool").substring("resources:\n".length())
                + manifest("absent", "other").substring("resources:\n".length()));
        ResourceReport group = Manifests.resource(plan, "package#" + hello());
        assertThat(group.status()).isEqualTo(Status.CHANGED);
        assertThat(details(group)).contains(hello() + " 1.0 -> 2.0", repo.name("tool") + " absent -> 1.0",
                repo.name("lib") + " absent -> 1.0");
        assertThat(installed("hello")).isEqualTo("1.0");
        assertThat(installed("tool")).isEqualTo("absent");
    }

    @Test
    void packagesOfARunConvergeInOneAptTransaction() throws Exception {
        long before = transactions();
        Report report = manifests.apply(manifest("present", "hello", "tool", "other"));
        ResourceReport group = Manifests.resource(report, "package#" + hello());
        assertThat(group.grouped()).containsExactly("package#" + repo.name("tool"), "package#" + repo.name("other"));
        assertThat(group.changedAttributes()).containsExactlyInAnyOrder(hello(), repo.name("tool"), repo.name("lib"), repo.name("other"));
        assertThat(transactions() - before).isEqualTo(1);

        assertThat(Manifests.resource(manifests.apply(manifest("absent", "hello", "tool", "lib", "other")), "package#" + hello())
                .changedAttributes()).hasSize(4);
        assertThat(transactions() - before).isEqualTo(2);
        assertThat(manifests.apply(manifest("present", "hello", "tool", "other")).resources()).singleElement()
                .satisfies(r -> assertThat(r.status()).isEqualTo(Status.CHANGED));
        assertThat(manifests.apply(manifest("present", "hello", "tool", "other")).resources()).singleElement()
                .satisfies(r -> assertThat(r.status()).isEqualTo(Status.STABLE));
        assertThat(transactions() - before).isEqualTo(3);
    }

    @Test
    void removingAPackageOthersDependOnIsRefused() throws Exception {
        apply(manifest("present", "tool"), "tool");
        ResourceReport lib = apply(manifest("absent", "lib"), "lib");
        assertThat(lib.status()).isEqualTo(Status.FAILED);
        assertThat(lib.error()).contains("removing " + repo.name("lib") + " would also remove " + repo.name("tool"));
        assertThat(installed("tool")).isEqualTo("1.0");
        assertThat(installed("lib")).isEqualTo("1.0");
    }

    @Test
    void anotherResourceReadsTheInstalledVersion() throws Exception {
        manifests.apply("""
                resources:
                  - package:
                      - %s: {ensure: latest}
                  - file:
                      - ROOT/version: {content: "${ lookup('package#%s.version') }"}
                """.formatted(hello(), hello()));
        assertThat(dir.resolve("version")).hasContent("2.0");
    }

    @Test
    void aLiveRunReinstallsAPackageRemovedBehindItsBack() throws Exception {
        live = new LiveRun(new RunOptions("testhost", false, 4, dir.resolve(".prefix"), false, false), 0.2, new Metrics(),
                r -> {}, converged -> {});
        live.swap(manifests.compile(manifest("\"1.0\"", "hello")));
        assertThat(live.awaitConverged(Duration.ofSeconds(60).toNanos())).isTrue();
        assertThat(installed("hello")).isEqualTo("1.0");

        Process remove = new ProcessBuilder("apt-get", "remove", "-y", "-q", hello()).redirectErrorStream(true).start();
        assertThat(remove.waitFor()).isZero();
        await().atMost(Duration.ofSeconds(60)).until(() -> installed("hello").equals("1.0"));
    }

    @Test
    void badNamesAndEnsureValuesAreCompileErrors() {
        assertThatThrownBy(() -> manifests.compile("resources:\n  - package: [{-oAPT::x: {}}]\n"))
                .isInstanceOf(ManifestException.class).hasMessageContaining("is not a Debian package name");
        assertThatThrownBy(() -> manifests.compile("resources:\n  - package: [{hello: {ensure: 1.10}}]\n"))
                .isInstanceOf(ManifestException.class).hasMessageContaining("write a version as a quoted string");
        assertThatThrownBy(() -> manifests.compile("resources:\n  - package: [{hello: {ensure: lastest}}]\n"))
                .isInstanceOf(ManifestException.class).hasMessageContaining("did you mean 'latest'");
    }
}
