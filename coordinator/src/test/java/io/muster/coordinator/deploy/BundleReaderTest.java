package io.muster.coordinator.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleReaderTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private Bundle read(Path given) throws DeployException {
        return new BundleReader(BundleReader.DEFAULT_MAX_BYTES, warnings::add).read(given);
    }

    private static List<String> paths(Bundle bundle) {
        return bundle.files().stream().map(Bundle.File::path).toList();
    }

    private Path write(String path, String content) throws Exception {
        Path file = dir.resolve(path);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, content);
    }

    @Test
    void aDirectoryIsTheBundleWithSiteYamlItsRootManifest() throws Exception {
        write("site.yaml", "resources: []\n");
        write("files/motd", "hello\n");
        Files.setPosixFilePermissions(write("bin/run.sh", "#!/bin/sh\n"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Bundle bundle = read(dir);
        assertThat(bundle.manifest()).isEqualTo("site.yaml");
        assertThat(bundle.root()).isEqualTo(dir.toRealPath());
        assertThat(paths(bundle)).containsExactly("bin/run.sh", "files/motd", "site.yaml");
        Bundle.File motd = bundle.files().get(1);
        assertThat(motd.size()).isEqualTo(6);
        assertThat(motd.sha256()).isEqualTo("5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
        assertThat(motd.executable()).isFalse();
        assertThat(bundle.files().get(0).executable()).isTrue();
    }

    @Test
    void aFileIsTheRootManifestOfItsDirectory() throws Exception {
        Path web = write("web.yaml", "resources: []\n");
        write("other.txt", "x");
        Bundle bundle = read(web);
        assertThat(bundle.manifest()).isEqualTo("web.yaml");
        assertThat(paths(bundle)).containsExactly("other.txt", "web.yaml");
    }

    @Test
    void aDirectoryWithoutSiteYamlOrAMissingPathIsAClearError() throws Exception {
        write("web.yaml", "resources: []\n");
        assertThatThrownBy(() -> read(dir)).isInstanceOf(DeployException.class)
                .hasMessage(dir + ": no site.yaml in this directory (name the root manifest: muster deploy " + dir + "/FILE.yaml)");
        assertThatThrownBy(() -> read(dir.resolve("nope"))).hasMessage(dir.resolve("nope") + ": no such file or directory");
    }

    @Test
    void gitAndWhatMusterignoreListsAreLeftOut() throws Exception {
        write("site.yaml", "resources: []\n");
        write(".git/config", "x");
        write("sub/.git/HEAD", "x");
        write(".musterignore", "# comments and blank lines are ignored\n\n*.log\n/build/\ndocs/*.md\n!docs/keep.md\ncache/\n");
        write("a.log", "x");
        write("sub/b.log", "x");
        write("build/out.bin", "x");
        write("sub/build/kept.txt", "x");
        write("docs/x.md", "x");
        write("docs/keep.md", "x");
        write("sub/docs/y.md", "x");
        write("deep/cache/z", "x");
        assertThat(paths(read(dir))).containsExactly(".musterignore", "docs/keep.md", "site.yaml", "sub/build/kept.txt", "sub/docs/y.md");
    }

    @Test
    void aBadIgnorePatternNamesItsLine() throws Exception {
        write("site.yaml", "resources: []\n");
        write(".musterignore", "ok\n[unclosed\n");
        assertThatThrownBy(() -> read(dir)).hasMessageStartingWith(dir.toRealPath().resolve(".musterignore") + ":2:1: not a valid glob '[unclosed'");
    }

    @Test
    void symbolicLinksAreFollowedOnlyInsideTheBundle(@TempDir Path outside) throws Exception {
        write("site.yaml", "resources: []\n");
        write("real/file.txt", "inside");
        Files.createSymbolicLink(dir.resolve("link.txt"), dir.resolve("real/file.txt"));
        Files.createSymbolicLink(dir.resolve("again"), dir.resolve("real"));
        Files.createSymbolicLink(dir.resolve("loop"), dir);
        Files.writeString(outside.resolve("secret"), "outside");
        Files.createSymbolicLink(dir.resolve("escape"), outside.resolve("secret"));
        Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("none"));
        Bundle bundle = read(dir);
        assertThat(paths(bundle)).containsExactly("again/file.txt", "link.txt", "real/file.txt", "site.yaml");
        assertThat(warnings).containsExactlyInAnyOrder(
                dir.toRealPath().resolve("escape") + ": left out, a symbolic link out of the bundle (to " + outside.toRealPath().resolve("secret") + ")",
                dir.toRealPath().resolve("dangling") + ": left out, a symbolic link to nothing",
                dir.toRealPath().resolve("loop") + ": left out, a symbolic link to a directory that holds it");
    }

    @Test
    void aBundleOverTheLimitIsRefusedNamingTheFlag() throws Exception {
        write("site.yaml", "resources: []\n");
        write("big.bin", "x".repeat(2000));
        assertThatThrownBy(() -> new BundleReader(1024, warnings::add).read(dir)).isInstanceOf(DeployException.class)
                .hasMessageContaining("over --max-bundle (1024 bytes)").hasMessageContaining("big.bin");
        assertThat(new BundleReader(4096, warnings::add).read(dir).files()).extracting(Bundle.File::size).containsExactly(2000L, 14L);
    }

    @Test
    void anIgnoredRootManifestIsAnError() throws Exception {
        write("site.yaml", "resources: []\n");
        write(".musterignore", "*.yaml\n");
        assertThatThrownBy(() -> read(dir)).hasMessageContaining("the root manifest is left out by");
    }
}
