package io.muster.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.codec.GraphCodec;
import io.muster.engine.graph.Graph;
import io.muster.engine.graph.Vertex;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Kinds;
import io.muster.engine.testing.FakePackageKind;
import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A graph that travels (encoded, then decoded on another host, in another directory) is the graph compiled: it
 * encodes to the same bytes, plans the same, keeps every resource on a graph swap, and runs with no manifest file.
 * Over every manifest of examples/ and of the codec corpus (each at the top of its directory; the others are
 * children they apply).
 */
class DecodedGraphTest {
    private static final Kinds KINDS = Kinds.installed().with(new FakePackageKind());
    private static final Path EXAMPLES = Path.of("").toAbsolutePath().resolveSibling("examples");

    @TempDir
    Path dir;

    static Stream<Path> manifests() throws IOException, URISyntaxException {
        Path corpus = Path.of(DecodedGraphTest.class.getResource("/io/muster/engine/codec/corpus").toURI());
        return Stream.of(EXAMPLES, corpus).flatMap(DecodedGraphTest::topManifests);
    }

    private static Stream<Path> topManifests(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manifests")
    void aDecodedGraphEncodesPlansAndSwapsAsTheCompiledOne(Path manifest) throws Exception {
        Path original = copyBundle(manifest.getParent(), dir.resolve("original"));
        Manifests manifests = new Manifests(dir, KINDS);
        Graph compiled = manifests.compile(original.resolve(manifest.getFileName()), Map.of("root", dir.resolve("out").toString()));
        GraphCodec.Encoded encoded = GraphCodec.encode(compiled);

        Graph here = GraphCodec.decode(encoded.bytes(), original, KINDS);
        assertThat(GraphCodec.encode(here).bytes()).as("encode, decode, encode").isEqualTo(encoded.bytes());
        assertThat(GraphCodec.encode(here).sha256()).isEqualTo(encoded.sha256()).hasSize(64);
        for (Vertex v : compiled.vertices()) {
            assertThat(Engine.same(v, here.vertex(v.id()))).as("a swap keeps %s", v.id()).isTrue();
        }

        Path elsewhere = copyBundle(original, dir.resolve("elsewhere"));
        for (Path file : compiled.manifests()) Files.delete(elsewhere.resolve(original.relativize(file)));
        Graph there = GraphCodec.decode(encoded.bytes(), elsewhere, KINDS);
        assertThat(GraphCodec.encode(there).bytes()).as("decoded in another directory").isEqualTo(encoded.bytes());
        assertThat(comparable(manifests.run(there, true), elsewhere))
                .isEqualTo(comparable(manifests.run(compiled, true), original));
    }

    @Test
    void aDecodedGraphRunsWithOnlyTheBundleFilesItNeedsAndPointsAtItsManifest() throws Exception {
        Manifests manifests = new Manifests(dir.resolve("bundle"), KINDS);
        Files.createDirectories(manifests.dir().resolve("files"));
        Files.writeString(manifests.dir().resolve("files/banner.txt"), "welcome\n");
        Path out = Files.createDirectories(dir.resolve("out"));
        manifests.write("lib/child.yaml", """
                resources:
                  - exec:
                      - where-child: {command: "pwd > OUT/where-child", shell: true, creates: OUT/where-child}
                """.replace("OUT", out.toString()));
        Graph compiled = manifests.compile(manifests.write("site.yaml", """
                resources:
                  - file:
                      - OUT/banner: {source: files/banner.txt}
                      - OUT/mode:
                          content: "x"
                          mode: "{{ lookup('exec#mode.stdout') }}"
                  - exec:
                      - mode: {command: "echo rwx"}
                      - where: {command: "pwd > OUT/where", shell: true, creates: OUT/where}
                  - apply: [lib/child.yaml]
                """.replace("OUT", out.toString())), Map.of());
        byte[] bytes = GraphCodec.encode(compiled).bytes();

        Path agent = Files.createDirectories(dir.resolve("agent"));
        compiled.bundle().files().forEach((path, sha256) -> copy(manifests.dir().resolve(path), agent.resolve(path)));
        for (String directory : compiled.bundle().directories()) Files.createDirectories(agent.resolve(directory));
        try (Stream<Path> files = Files.walk(agent)) {
            assertThat(files.filter(Files::isRegularFile).map(agent::relativize).map(Path::toString)).containsExactly("files/banner.txt");
        }
        Graph decoded = GraphCodec.decode(bytes, agent, KINDS);
        Report report = manifests.run(decoded, false);

        assertThat(Files.readString(out.resolve("banner"))).isEqualTo("welcome\n");
        assertThat(Files.readString(out.resolve("where")).strip()).as("a command runs in its manifest's directory there")
                .isEqualTo(agent.toString());
        assertThat(Files.readString(out.resolve("where-child")).strip()).isEqualTo(agent.resolve("lib").toString());
        ResourceReport mode = Manifests.resource(report, "file#" + out.resolve("mode"));
        assertThat(mode.status()).isEqualTo(Status.FAILED);
        assertThat(mode.error()).as("a run-time error points at the manifest's line and column")
                .startsWith(agent.resolve("site.yaml") + ":6:17: mode: ");
    }

    /** The reports as text, without their timings, with the bundle's directory written as {@code BUNDLE}. */
    private static List<String> comparable(Report report, Path bundle) {
        return report.resources().stream()
                .map(r -> new ResourceReport(r.id(), r.status(), r.changes(), r.refreshed(), r.message(), r.error(), 0,
                        r.healthChecks(), r.manifest(), r.grouped()).toString().replace(bundle.toString(), "BUNDLE"))
                .toList();
    }

    /** The bundle under {@code from}: its manifests and files, not a build's own directories. */
    private static Path copyBundle(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path relative = from.relativize(file);
                String top = relative.getName(0).toString();
                if (!top.equals("src") && !top.equals("target") && !top.equals("pom.xml")) copy(file, to.resolve(relative));
            }
        }
        return to;
    }

    private static void copy(Path from, Path to) {
        try {
            Files.createDirectories(to.getParent());
            Files.copy(from, to);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
