package io.muster.engine.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.resource.Kinds;
import io.muster.engine.testing.FakePackageKind;
import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same graph gives the same bytes in any JVM: hash orders that change from one JVM to the next ({@code Map.of})
 * must not reach the encoding, or coordinators would publish a graph again on every fail-over.
 */
class AnotherJvmTest {
    @TempDir
    Path dir;

    @Test
    void twoJvmsEncodeTheCorpusToTheSameBytes() throws Exception {
        Path bundle = copyCorpus(dir.resolve("bundle"));
        List<String> here = hashes(bundle, dir.resolve("out"));
        assertThat(here).hasSizeGreaterThan(2);
        for (int jvm = 0; jvm < 2; jvm++) assertThat(inAnotherJvm(bundle, dir.resolve("out"))).isEqualTo(here);
    }

    /** Each top-level manifest of {@code bundle} with the sha256 of its encoded graph. */
    static List<String> hashes(Path bundle, Path out) throws Exception {
        Manifests manifests = new Manifests(bundle, Kinds.installed().with(new FakePackageKind()));
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(bundle)) {
            for (Path manifest : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                String sha256 = GraphCodec.encode(manifests.compile(manifest, Map.of("root", out.toString()))).sha256();
                lines.add(manifest.getFileName() + " " + sha256);
            }
        }
        return lines;
    }

    /** Run by {@link #inAnotherJvm}: prints {@link #hashes} of the bundle {@code args[0]}, output under {@code args[1]}. */
    public static void main(String[] args) throws Exception {
        for (String line : hashes(Path.of(args[0]), Path.of(args[1]))) System.out.println(line);
    }

    private static List<String> inAnotherJvm(Path bundle, Path out) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "--enable-native-access=ALL-UNNAMED",
                AnotherJvmTest.class.getName(), bundle.toString(), out.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output.lines().toList();
    }

    private static Path copyCorpus(Path to) throws IOException, URISyntaxException {
        Path corpus = Path.of(AnotherJvmTest.class.getResource("/io/muster/engine/codec/corpus").toURI());
        try (Stream<Path> files = Files.walk(corpus)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = to.resolve(corpus.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }
}
