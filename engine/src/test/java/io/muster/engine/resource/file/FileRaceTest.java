package io.muster.engine.resource.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.muster.engine.graph.Graph;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Root (muster) writes files while nobody, who owns the directory they are in, races it with renames,
 * symlinks and FIFOs for a few seconds: root never changes a file outside the managed one, never hangs,
 * and each failure is a clear error about the managed path.
 */
class FileRaceTest {
    private static final int SECONDS = 3;

    @TempDir
    Path root;
    private Path attacker;
    private Path home;
    private Path victims;
    private Manifests m;

    @BeforeEach
    void setUp() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "the attacks need root and another uid");
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        attacker = Attacker.compile(Files.createDirectory(root.resolve("bin")));
        home = Files.createDirectory(root.resolve("home"));
        giveToNobody(home);
        victims = Files.createDirectory(root.resolve("victims"));
        Files.writeString(victims.resolve("secret"), "root's secret\n");
        Files.setPosixFilePermissions(victims.resolve("secret"), PosixFilePermissions.fromString("rw-------"));
        Files.writeString(victims.resolve("public"), "root's file\n");
        Path etc = Files.createDirectory(victims.resolve("etc"));
        for (int i = 0; i < 50; i++) Files.writeString(etc.resolve("f" + i), "keep " + i);
        m = new Manifests(root);
    }

    private static void giveToNobody(Path path) throws Exception {
        Files.setAttribute(path, "unix:uid", Attacker.NOBODY);
        Files.setAttribute(path, "unix:gid", Attacker.NOBODY);
    }

    /** The file's content alternates between two graphs, so that every run writes it. */
    private Graph[] alternating(String yaml) throws Exception {
        return new Graph[] {m.compile(yaml.replace("CONTENT", "one")), m.compile(yaml.replace("CONTENT", "two"))};
    }

    /** Runs the graphs in turn while the attacker runs; returns the errors reported. */
    private List<String> race(Attacker running, Runnable beforeEach, Graph... graphs) {
        List<String> errors = new ArrayList<>();
        int[] runs = {0};
        assertTimeoutPreemptively(Duration.ofSeconds(SECONDS + 30), () -> {
            while (running.running()) {
                beforeEach.run();
                for (ResourceReport r : m.run(graphs[runs[0]++ % graphs.length], false).resources()) {
                    if (r.error() != null) errors.add(r.error());
                }
            }
        }, "muster hung");
        assertThat(runs[0]).as("runs of muster during the attack").isGreaterThan(20);
        return errors;
    }

    private static void assertClear(List<String> errors, Path managed) {
        assertThat(errors).allSatisfy(e -> assertThat(e).as("error").contains(managed.getParent().toString()).doesNotContain("Exception"));
    }

    @Test
    void aTempFileSwappedForALinkOrAFifoNeverRedirectsRootsChownOrChmod() throws Exception {
        Snapshot before = Snapshot.of(victims);
        Graph[] graphs = alternating("""
                resources:
                  - file: [{ROOT/home/motd: {content: CONTENT, owner: nobody, mode: "0644"}}]
                """);
        List<String> errors;
        Map<String, Long> counts;
        try (Attacker a = Attacker.start(attacker, 10, "temp", home, victims.resolve("secret"), SECONDS)) {
            errors = race(a, () -> {}, graphs);
            counts = a.counts();
        }
        assertThat(counts.get("swaps")).as("temp files swapped").isGreaterThanOrEqualTo(10);
        assertThat(Snapshot.of(victims)).isEqualTo(before);
        assertClear(errors, home.resolve("motd"));
        assertThat(errors).isNotEmpty().allSatisfy(e -> assertThat(e).contains("was moved or replaced while muster wrote"));
    }

    @Test
    void aManagedFileSwappedForALinkOrAFifoBetweenCheckAndChangeIsNeverFollowed() throws Exception {
        Snapshot before = Snapshot.of(victims);
        Graph graph = m.compile("""
                resources:
                  - file: [{ROOT/home/conf: {owner: nobody, mode: "0600"}}]
                """);
        List<String> errors;
        Map<String, Long> counts;
        try (Attacker a = Attacker.start(attacker, 300, "target", home, "conf", victims.resolve("public"), SECONDS)) {
            errors = race(a, () -> {}, graph);
            counts = a.counts();
        }
        assertThat(counts.get("swaps")).isGreaterThanOrEqualTo(300);
        assertThat(Snapshot.of(victims)).isEqualTo(before);
        assertClear(errors, home.resolve("conf"));
    }

    @Test
    void aParentDirectorySwappedForALinkIsNotFollowed() throws Exception {
        Snapshot before = Snapshot.of(victims);
        Graph[] graphs = alternating("""
                resources:
                  - file: [{ROOT/home/sub/file: {content: CONTENT, owner: nobody}}]
                """);
        List<String> errors;
        try (Attacker a = Attacker.start(attacker, 0, "parent", home, "sub", victims.resolve("etc"), SECONDS)) {
            errors = race(a, () -> {}, graphs);
            a.counts();
        }
        assertThat(Snapshot.of(victims)).isEqualTo(before);
        assertClear(errors, home.resolve("sub/file"));
        assertThat(errors).anySatisfy(e -> assertThat(e).startsWith("bad ownership of symbolic link " + home.resolve("sub")
                + ": owned by nobody; muster follows only links owned by root"));
    }

    @Test
    void aTreeDeletedWithForceNeverFollowsALinkSwappedIntoIt() throws Exception {
        Snapshot before = Snapshot.of(victims);
        Path base = Files.createDirectory(root.resolve("base"));
        Path tree = base.resolve("tree");
        Graph graph = m.compile("""
                resources:
                  - file: [{ROOT/base/tree: {ensure: absent, force: true}}]
                """);
        Runnable remake = () -> {
            try {
                if (!Files.exists(tree)) giveToNobody(Files.createDirectory(tree));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        remake.run();
        List<String> errors;
        try (Attacker a = Attacker.start(attacker, 1000, "tree", tree, victims.resolve("etc"), SECONDS)) {
            errors = race(a, remake, graph);
            assertThat(a.counts().get("swaps")).isGreaterThanOrEqualTo(1000);
        }
        assertThat(Snapshot.of(victims)).isEqualTo(before);
        assertClear(errors, tree);
    }

    @Test
    void aCopiedTreeAndItsPurgeNeverFollowALinkSwappedIntoIt() throws Exception {
        Snapshot before = Snapshot.of(victims);
        Path source = Files.createDirectories(root.resolve("source/a"));
        Files.writeString(source.resolve("f0"), "copied"); // one of the names the attacker writes in its a
        Path site = Files.createDirectory(home.resolve("site"));
        giveToNobody(site);
        Graph graph = m.compile("""
                resources:
                  - file: [{ROOT/home/site: {source: source, recurse: true, purge: true, owner: nobody, group: nogroup}}]
                """);
        List<String> errors;
        try (Attacker a = Attacker.start(attacker, 100, "tree", site, victims.resolve("etc"), SECONDS)) {
            errors = race(a, () -> {}, graph);
            assertThat(a.counts().get("swaps")).isGreaterThanOrEqualTo(100);
        }
        assertThat(Snapshot.of(victims)).isEqualTo(before);
        assertClear(errors, site.resolve("a"));
    }

    /** What a watcher as nobody saw of the temp files while muster wrote ROOT/pub/NAME with {@code mode} again and again. */
    private Map<String, Long> watchWrites(String name, String mode) throws Exception {
        Path pub = Files.createDirectory(root.resolve("pub"));
        Graph[] graphs = alternating("""
                resources:
                  - file: [{ROOT/pub/NAME: {content: CONTENT, mode: "MODE"}}]
                """.replace("NAME", name).replace("MODE", mode));
        Map<String, Long> counts;
        try (Attacker a = Attacker.start(attacker, 20, "watch", pub, mode, SECONDS)) {
            assertThat(race(a, () -> {}, graphs)).isEmpty();
            counts = a.counts();
        }
        assertThat(counts.get("created")).as("temp files seen").isGreaterThanOrEqualTo(20);
        return counts;
    }

    @Test
    void noOtherUserCanOpenATempFileWhileASecretIsWritten() throws Exception {
        assertThat(watchWrites("secret", "0600").get("opened")).as("temp files nobody opened").isZero();
    }

    @Test
    void aTempFileIsCreated0600ThenGetsItsMode() throws Exception {
        assertThat(watchWrites("conf", "0640").get("modeOther")).as("temp files seen with a mode other than 0600 or the final 0640").isZero();
    }
}
