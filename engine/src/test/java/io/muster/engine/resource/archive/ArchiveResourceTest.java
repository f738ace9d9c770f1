package io.muster.engine.resource.archive;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code archive}: real archives made by tar and zip (and crafted ones an attacker would make), real files, a real HTTP server. */
class ArchiveResourceTest {
    @TempDir
    Path dir;
    private Path app;

    @BeforeEach
    void tree() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree/app-1.0/bin"));
        Files.writeString(tree.resolve("run"), "#!/bin/sh\necho hi\n");
        Files.setPosixFilePermissions(tree.resolve("run"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(tree.resolve("../README"), "read me\n");
        Files.createSymbolicLink(tree.resolve("start"), Path.of("run"));
        app = dir.resolve("opt/app");
        Files.createDirectories(app.getParent());
    }

    private static void run(Path cwd, String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as("%s: %s", List.of(command), out).isTrue();
    }

    private ResourceReport apply(String properties) throws Exception {
        return resource(new Manifests(dir).apply("""
                resources:
                  - archive: [{ROOT/opt/app: {%s}}]
                """.formatted(properties)), "archive#" + app);
    }

    private void assertExtracted() throws Exception {
        assertThat(app.resolve("app-1.0/README")).hasContent("read me");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(app.resolve("app-1.0/bin/run")))).isEqualTo("rwxr-xr-x");
        assertThat(Files.readSymbolicLink(app.resolve("app-1.0/bin/start"))).isEqualTo(Path.of("run"));
    }

    private void assertNothingLeftBeside() throws Exception {
        try (Stream<Path> beside = Files.list(app.getParent())) {
            assertThat(beside.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".muster-"));
        }
    }

    @Test
    void extractsATarGzOnceThenAgainWhenTheArchiveChanges() throws Exception {
        run(dir.resolve("tree"), "tar", "czf", "../app.tar.gz", "app-1.0");
        ResourceReport first = apply("source: app.tar.gz");
        assertThat(first.status()).as(first.error()).isEqualTo(Status.CHANGED);
        assertExtracted();
        assertNothingLeftBeside();
        assertThat(apply("source: app.tar.gz").status()).isEqualTo(Status.STABLE);

        Files.writeString(dir.resolve("tree/app-1.0/README"), "version 2\n");
        run(dir.resolve("tree"), "tar", "czf", "../app.tar.gz", "app-1.0");
        assertThat(apply("source: app.tar.gz").status()).isEqualTo(Status.CHANGED);
        assertThat(app.resolve("app-1.0/README")).hasContent("version 2");
    }

    @Test
    void extractsTarXzAndZipIntoADirectoryThatHoldsOtherFilesKeepingThem() throws Exception {
        run(dir.resolve("tree"), "tar", "cJf", "../app.tar.xz", "app-1.0");
        run(dir.resolve("tree"), "zip", "-qry", "../app.zip", "app-1.0");
        Files.createDirectories(app.resolve("app-1.0"));
        Files.writeString(app.resolve("app-1.0/local.conf"), "mine\n");
        assertThat(apply("source: app.tar.xz").status()).isEqualTo(Status.CHANGED);
        assertExtracted();
        assertThat(app.resolve("app-1.0/local.conf")).hasContent("mine");

        Files.writeString(app.resolve("app-1.0/README"), "edited\n");
        assertThat(apply("source: app.zip, creates: ROOT/opt/app/app-1.0/bin/missing").status()).isEqualTo(Status.CHANGED);
        assertExtracted();
        assertThat(apply("source: app.zip, creates: ROOT/opt/app/app-1.0/README").status()).isEqualTo(Status.STABLE);
    }

    @Test
    void whatAKilledExtractionLeftBesideIsRemoved() throws Exception {
        Path left = Files.createDirectories(app.getParent().resolve(".app.muster-0123456789abcdef/app-1.0"));
        Files.writeString(left.resolve("half"), "written");
        Path notOurs = Files.createDirectories(app.getParent().resolve(".app.muster-notours"));
        run(dir.resolve("tree"), "tar", "cf", "../app.tar", "app-1.0");
        assertThat(apply("source: app.tar").status()).isEqualTo(Status.CHANGED);
        assertThat(left.getParent()).doesNotExist();
        assertThat(notOurs).exists();
    }

    @Test
    void noopReportsTheExtractionAndChangesNothing() throws Exception {
        run(dir.resolve("tree"), "tar", "cf", "../app.tar", "app-1.0");
        ResourceReport plan = resource(new Manifests(dir).plan("""
                resources:
                  - archive: [{ROOT/opt/app: {source: app.tar}}]
                """), "archive#" + app);
        assertThat(plan.changes()).extracting(c -> c.describe()).containsExactly("extracted absent -> " + dir.resolve("app.tar"));
        assertThat(app).doesNotExist();
    }

    /** Entries of a tar an attacker made: name, then link target (null for a file). */
    private Path craftedTar(String... entries) throws Exception {
        Path tar = dir.resolve("evil.tar");
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(tar))) {
            for (int i = 0; i < entries.length; i += 2) {
                TarArchiveEntry e;
                if (entries[i + 1] == null) {
                    e = new TarArchiveEntry(entries[i], true);
                    e.setSize(5);
                    out.putArchiveEntry(e);
                    out.write("evil\n".getBytes(StandardCharsets.UTF_8));
                } else {
                    e = new TarArchiveEntry(entries[i], TarArchiveEntry.LF_SYMLINK, true);
                    e.setLinkName(entries[i + 1]);
                    out.putArchiveEntry(e);
                }
                out.closeArchiveEntry();
            }
        }
        return tar;
    }

    @Test
    void entriesThatEscapeAreRefusedAndNothingIsExtracted() throws Exception {
        Files.createDirectories(app);
        Files.writeString(app.resolve("kept"), "as it was\n");
        String[][] attacks = {
                {"ok", null, "../escaped", null},
                {"ok", null, "/tmp/absolute-" + dir.getFileName(), null},
                {"ok", null, "out", "../../.."},
                {"ok", null, "here", ".", "here/../escaped", null},
                {"ok", null, "sub/x", null, "link", "sub", "link/written-through", null},
                {"ok", null, "l", ".", "m", "l/../.."},
        };
        List<String> errors = new java.util.ArrayList<>();
        for (String[] attack : attacks) {
            craftedTar(attack);
            ResourceReport r = apply("source: evil.tar");
            assertThat(r.status()).isEqualTo(Status.FAILED);
            errors.add(r.error().replace(dir.resolve("evil.tar").toString(), "evil.tar"));
            try (Stream<Path> all = Files.list(app)) {
                assertThat(all.map(p -> p.getFileName().toString())).containsExactly("kept");
            }
            assertNothingLeftBeside();
        }
        assertThat(dir.resolve("escaped")).doesNotExist();
        assertThat(dir.resolve("opt/escaped")).doesNotExist();
        assertThat(Path.of("/tmp/absolute-" + dir.getFileName())).doesNotExist();
        assertThat(errors).containsExactly(
                "archive evil.tar: entry '../escaped' climbs out with '..'; nothing was extracted",
                "archive evil.tar: entry '/tmp/absolute-" + dir.getFileName() + "' has an absolute path; nothing was extracted",
                "archive evil.tar: entry 'out' is a link to ../../.., outside the target directory; nothing was extracted",
                "archive evil.tar: entry 'here/../escaped' climbs out with '..'; nothing was extracted",
                "archive evil.tar: entry 'link/written-through' goes through the link link an earlier entry made; nothing was extracted",
                "archive evil.tar: entry 'm' is a link to l/../.., with '..' after a name; nothing was extracted");
    }

    @Test
    void aZipSlipIsRefused() throws Exception {
        Path zip = dir.resolve("slip.zip");
        try (ZipArchiveOutputStream out = new ZipArchiveOutputStream(Files.newOutputStream(zip))) {
            out.putArchiveEntry(new ZipArchiveEntry("good.txt"));
            out.write("fine".getBytes(StandardCharsets.UTF_8));
            out.closeArchiveEntry();
            out.putArchiveEntry(new ZipArchiveEntry("../../slipped.txt"));
            out.write("evil".getBytes(StandardCharsets.UTF_8));
            out.closeArchiveEntry();
        }
        ResourceReport r = apply("source: slip.zip");
        assertThat(r.error()).isEqualTo("archive " + zip + ": entry '../../slipped.txt' climbs out with '..'; nothing was extracted");
        assertThat(app).doesNotExist();
        assertThat(dir.resolve("slipped.txt")).doesNotExist();
        assertNothingLeftBeside();
    }

    @Test
    void aUrlIsDownloadedAndItsChecksumCheckedBeforeExtracting() throws Exception {
        run(dir.resolve("tree"), "tar", "czf", "../app.tar.gz", "app-1.0");
        byte[] bytes = Files.readAllBytes(dir.resolve("app.tar.gz"));
        String sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/app.tar.gz", exchange -> {
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();
            ResourceReport wrong = apply("source: " + url + "/app.tar.gz, checksum: \"sha256:" + "0".repeat(64) + "\"");
            assertThat(wrong.error()).isEqualTo("checksum mismatch for " + url + "/app.tar.gz: expected sha256 " + "0".repeat(64)
                    + ", got " + sha256 + "; nothing was extracted");
            assertThat(app).doesNotExist();

            assertThat(apply("source: " + url + "/missing.tar.gz, checksum: " + sha256).error())
                    .isEqualTo("cannot download " + url + "/missing.tar.gz: HTTP request failed with status 404");

            assertThat(apply("source: " + url + "/app.tar.gz, checksum: " + sha256).status()).isEqualTo(Status.CHANGED);
            assertExtracted();
            assertThat(apply("source: " + url + "/app.tar.gz, checksum: " + sha256).status()).isEqualTo(Status.STABLE);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aUrlWithoutChecksumIsACompileError() {
        assertThatThrownBy(() -> new Manifests(dir).compile("""
                resources:
                  - archive: [{ROOT/opt/app: {source: "https://example.com/app.tar.gz"}}]
                """)).isInstanceOf(ManifestException.class)
                .hasMessageContaining("checksum: a URL source requires checksum: the archive's sha256, checked before it is extracted"
                        + " (or file, to keep the archive there)");
    }

    @Test
    void aLinkInTheTargetIsReplacedNotFollowed() throws Exception {
        Path victim = Files.createDirectories(dir.resolve("victim"));
        Files.createDirectories(app);
        Files.createSymbolicLink(app.resolve("app-1.0"), victim);
        run(dir.resolve("tree"), "tar", "cf", "../app.tar", "app-1.0");
        assertThat(apply("source: app.tar").status()).isEqualTo(Status.CHANGED);
        try (Stream<Path> inVictim = Files.list(victim)) {
            assertThat(inVictim).isEmpty();
        }
        assertThat(Files.isDirectory(app.resolve("app-1.0"), LinkOption.NOFOLLOW_LINKS)).isTrue();
        assertExtracted();
    }

    @Test
    void aKeptFileTellsWhatIsDoneAndAbsentRemovesItAlone() throws Exception {
        run(dir.resolve("tree"), "tar", "czf", "../app.tar.gz", "app-1.0");
        Files.createDirectories(dir.resolve("keep"));
        Path kept = dir.resolve("keep/app.tar.gz");
        ResourceReport first = apply("source: app.tar.gz, file: ROOT/keep/app.tar.gz");
        assertThat(first.status()).as(first.error()).isEqualTo(Status.CHANGED);
        assertThat(first.changes()).extracting(c -> c.describe())
                .containsExactly("downloaded absent -> " + dir.resolve("app.tar.gz"), "extracted absent -> " + kept);
        assertThat(Files.readAllBytes(kept)).isEqualTo(Files.readAllBytes(dir.resolve("app.tar.gz")));
        assertExtracted();
        assertThat(apply("source: app.tar.gz, file: ROOT/keep/app.tar.gz").status()).isEqualTo(Status.STABLE);

        ResourceReport absent = apply("source: app.tar.gz, file: ROOT/keep/app.tar.gz, ensure: absent");
        assertThat(absent.changes()).extracting(c -> c.describe()).containsExactly("file " + kept + " -> absent");
        assertThat(kept).doesNotExist();
        assertExtracted();
    }

    @Test
    void extractFalseOnlyDownloadsToThePath() throws Exception {
        run(dir.resolve("tree"), "tar", "cf", "../app.tar", "app-1.0");
        Path copy = Files.createDirectories(dir.resolve("keep")).resolve("copy.tar");
        String manifest = """
                resources:
                  - archive: [{ROOT/keep/copy.tar: {source: app.tar, extract: false}}]
                """;
        ResourceReport r = resource(new Manifests(dir).apply(manifest), "archive#" + copy);
        assertThat(r.status()).as(r.error()).isEqualTo(Status.CHANGED);
        assertThat(Files.readAllBytes(copy)).isEqualTo(Files.readAllBytes(dir.resolve("app.tar")));
        try (Stream<Path> all = Files.list(dir.resolve("keep"))) {
            assertThat(all).containsExactly(copy);
        }
        assertThat(resource(new Manifests(dir).apply(manifest), "archive#" + copy).status()).isEqualTo(Status.STABLE);
    }

    @Test
    void whatKeepingTheArchiveNeedsIsCheckedWhenCompiled() {
        String[][] cases = {
                {"source: app.tar, ensure: absent", "ensure: absent removes the archive kept at file: set file (or extract: false, which keeps it at path)"},
                {"source: app.tar, file: ROOT/app.tar, cleanup: true", "cleanup: cleanup removes the kept file once it is extracted"},
                {"source: \"https://example.com/a.tar\", checksum: abc, username: u", "password: username and password go together"},
                {"source: app.tar, headers: {X-A: b}", "headers: only a URL source is asked for with headers or credentials"},
                {"source: \"https://example.com/a.tar\", file: ROOT/a.tar, headers: {Host: x}", "headers: Host is set by the HTTP client itself"},
                {"source: app.tar, extract: false, file: ROOT/other.tar", "file: with extract: false the archive is kept at path (the name)"},
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> new Manifests(dir).compile("""
                    resources:
                      - archive: [{ROOT/opt/app: {%s}}]
                    """.formatted(c[0]))).as(c[0]).isInstanceOf(ManifestException.class).hasMessageContaining(c[1]);
        }
    }
}
