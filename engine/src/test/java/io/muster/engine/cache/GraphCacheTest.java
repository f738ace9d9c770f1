package io.muster.engine.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.cache.GraphCache.Outcome;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.compile.CompileOptions;
import io.muster.engine.report.Report;
import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compiled-graph cache as one-shot runs use it: a second compile of unchanged inputs is a hit giving the graph a
 * compile gives; a change to anything the compile read (data, a fact, an environment variable a template reads, a
 * file of the bundle, an included manifest, what {@code file()} read) or another muster build is a miss; a corrupt
 * entry is compiled again and rewritten.
 */
class GraphCacheTest {
    @TempDir
    Path dir;

    private Path cacheDir;
    private Path site;
    private Map<String, Object> data;
    private Map<String, Object> facts;
    private Map<String, String> env;
    private String build;

    @BeforeEach
    void bundle() throws IOException {
        cacheDir = dir.resolve("state/graph-cache");
        Path bundle = Files.createDirectories(dir.resolve("bundle"));
        Files.createDirectories(bundle.resolve("lib"));
        Files.createDirectories(bundle.resolve("files"));
        Files.writeString(bundle.resolve("files/motd"), "welcome\n");
        Files.writeString(bundle.resolve("notes.txt"), "first notes");
        Files.writeString(bundle.resolve("lib/child.yaml"), """
                resources:
                  - file: [{%s/out/child: {content: "from the child\\n"}}]
                """.formatted(dir));
        site = Files.writeString(bundle.resolve("site.yaml"), """
                data: {port: 80}
                resources:
                  - file:
                      - %1$s/out: {ensure: directory}
                      - %1$s/out/motd: {source: files/motd}
                      - %1$s/out/greeting: {content: "${ env.GREETING } on ${ facts.os.family }:${ data.port }\\n"}
                      - %1$s/out/notes: {content: "${ file('notes.txt') }"}
                  - apply: [{lib/child.yaml: {}}]
                """.formatted(dir));
        data = Map.of();
        facts = new HashMap<>(Manifests.FACTS);
        env = new HashMap<>(Map.of("GREETING", "hello", "HOME", "/home/test"));
        build = "0.1.0 abc1234";
    }

    /** One run's compile: closing the cache waits for the entry a miss writes, as a run does before it exits. */
    private GraphCache.Compiled compile() throws Exception {
        try (GraphCache cache = new GraphCache(cacheDir, build)) {
            return cache.compile(site, new CompileOptions(facts, env, data));
        }
    }

    @Test
    void unchangedInputsGiveTheCompiledGraphFromTheCacheAndRunTheSame() throws Exception {
        GraphCache.Compiled first = compile();
        GraphCache.Compiled second = compile();

        assertThat(first.outcome()).isEqualTo(Outcome.MISS);
        assertThat(second.outcome()).isEqualTo(Outcome.HIT);
        assertThat(GraphCodec.encode(second.graph()).sha256()).isEqualTo(GraphCodec.encode(first.graph()).sha256());
        assertThat(second.graph().manifests()).containsExactlyInAnyOrderElementsOf(first.graph().manifests());
        Manifests runs = new Manifests(dir);
        assertThat(outcomes(runs.run(second.graph(), true))).isEqualTo(outcomes(runs.run(first.graph(), true)));
        Report applied = runs.run(second.graph(), false);
        assertThat(applied.exitCode()).isZero();
        assertThat(dir.resolve("out/greeting")).hasContent("hello on debian:80");
        assertThat(dir.resolve("out/notes")).hasContent("first notes");
        assertThat(dir.resolve("out/child")).hasContent("from the child");
    }

    private static List<String> outcomes(Report report) {
        return report.resources().stream().map(r -> r.id() + " " + r.status() + " " + r.changedAttributes()).toList();
    }

    static Stream<Arguments> changes() {
        return Stream.of(
                change("external data", t -> t.data = Map.of("port", 8080)),
                change("a fact a template reads", t -> t.facts.put("os", Map.of("family", "redhat"))),
                change("an environment variable a template reads", t -> t.env.put("GREETING", "hi")),
                change("a source file of the bundle", t -> t.write("files/motd", "welcome back\n")),
                change("what file() read at compile time", t -> t.write("notes.txt", "other notes")),
                change("an included manifest", t -> t.write("lib/child.yaml", """
                        resources:
                          - file: [{%s/out/child: {content: "changed\\n"}}]
                        """.formatted(t.dir))),
                change("the root manifest", t -> t.write("site.yaml", read(t.site) + "\n# a comment\n")),
                change("the muster build", t -> t.build = "0.1.1 def5678"));
    }

    private static Arguments change(String what, Consumer<GraphCacheTest> change) {
        return Arguments.of(what, change);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("changes")
    void aChangeToAnInputIsAMissAndTheNextRunAHitAgain(String what, Consumer<GraphCacheTest> change) throws Exception {
        compile();
        change.accept(this);

        GraphCache.Compiled changed = compile();
        assertThat(changed.outcome()).as(what).isEqualTo(Outcome.MISS);
        assertThat(compile().outcome()).as(what).isEqualTo(Outcome.HIT);
    }

    @Test
    void aVariableOrFactNoTemplateReadsChangesNothing() throws Exception {
        compile();
        env.put("HOME", "/root");
        env.put("UNRELATED", "x");
        facts.put("hostname", "other");

        assertThat(compile().outcome()).isEqualTo(Outcome.HIT);
    }

    @Test
    void aFileAddedDeepInASourceTreeIsAMiss() throws Exception {
        Files.createDirectories(site.resolveSibling("tree/sub"));
        write("tree/sub/a", "a\n");
        write("site.yaml", read(site) + "  - file: [{%s/out/tree: {source: tree, recurse: true}}]\n".formatted(dir));
        compile();
        assertThat(compile().outcome()).isEqualTo(Outcome.HIT);

        write("tree/sub/b", "b\n");
        GraphCache.Compiled added = compile();
        assertThat(added.outcome()).isEqualTo(Outcome.MISS);
        assertThat(added.graph().bundle().files()).containsKey("tree/sub/b");
    }

    /**
     * What a CCM manifest reads while it compiles is an input too: a file its templates read ({@code file()}), and a
     * scaffold's templates, one added to its directory included.
     */
    @Test
    void whatACcmManifestReadsWhileItCompilesIsAnInput() throws Exception {
        write("name.txt", dir + "/out/named");
        Files.createDirectories(site.resolveSibling("templates"));
        write("templates/a.conf", "a = {{ Data.port }}\n");
        site = Files.writeString(site.resolveSibling("ccm.yaml"), """
                data: {port: 80}
                ccm:
                  resources:
                    - file:
                        - "{{ file('name.txt') }}": {ensure: present, owner: root, group: root, mode: "0644", content: "x"}
                    - scaffold: [{%s/out/conf: {ensure: present, source: templates}}]
                """.formatted(dir));
        compile();
        assertThat(compile().outcome()).isEqualTo(Outcome.HIT);

        write("name.txt", dir + "/out/renamed");
        GraphCache.Compiled renamed = compile();
        assertThat(renamed.outcome()).as("file() read another content").isEqualTo(Outcome.MISS);
        assertThat(renamed.graph().ids()).contains("file#" + dir + "/out/renamed");

        write("templates/a.conf", "a = {{ Data.port }} changed\n");
        assertThat(compile().outcome()).as("a scaffold template changed").isEqualTo(Outcome.MISS);
        write("templates/b.conf", "b\n");
        assertThat(compile().outcome()).as("a scaffold template added").isEqualTo(Outcome.MISS);
        assertThat(compile().outcome()).isEqualTo(Outcome.HIT);
    }

    @Test
    void aCorruptOrTruncatedEntryIsCompiledAgainAndRewritten() throws Exception {
        compile();
        Path entry = onlyEntry();
        byte[] whole = Files.readAllBytes(entry);
        Files.write(entry, java.util.Arrays.copyOf(whole, whole.length / 2));
        assertThat(compile().outcome()).isEqualTo(Outcome.MISS);
        assertThat(Files.readAllBytes(entry)).isEqualTo(whole);

        whole[whole.length / 3] ^= 1;
        Files.write(entry, whole);
        assertThat(compile().outcome()).isEqualTo(Outcome.MISS);
        assertThat(compile().outcome()).isEqualTo(Outcome.HIT);
    }

    @Test
    void recompilingReadsNoEntryButWritesOne() throws Exception {
        try (GraphCache cache = new GraphCache(cacheDir, build)) {
            assertThat(cache.recompile(site, new CompileOptions(facts, env, data)).outcome()).isEqualTo(Outcome.OFF);
        }
        assertThat(compile().outcome()).isEqualTo(Outcome.HIT);
    }

    @Test
    void entriesAreMustersAlone() throws Exception {
        compile();
        assertThat(Files.getPosixFilePermissions(cacheDir)).isEqualTo(PosixFilePermissions.fromString("rwx------"));
        assertThat(Files.getPosixFilePermissions(onlyEntry())).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    private Path onlyEntry() throws IOException {
        try (Stream<Path> entries = Files.list(cacheDir)) {
            List<Path> all = entries.toList();
            assertThat(all).hasSize(1);
            return all.get(0);
        }
    }

    private void write(String name, String content) {
        try {
            Files.writeString(site.resolveSibling(name), content);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
