package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * A fuzz corpus made on the fly: valid manifests with random edits (characters YAML and templates care
 * about, control characters, odd tags, nesting past the limits: inserted, deleted or swapped). Whatever the edit, compiling either succeeds or reports problems
 * that each point at a line and say something; it never throws anything else.
 */
class BrokenManifestFuzzTest {
    private static final String SEED = """
            data:
              port: 8080
              names: [a, b]
            hierarchy:
              order: ["os:${ facts.os.family }", default]
              merge: deep
            overrides:
              os:debian: {pkg: apache2}
            resources:
              - file:
                  - defaults: {mode: "0644"}
                  - /tmp/fuzz/dir: {ensure: directory}
                  - /tmp/fuzz/dir/a.conf:
                      content: "Listen ${ data.port } {{ lookup('data.pkg', 'x') }}\\n"
                      require: exec#hello
                  - /tmp/fuzz/dir/b: {source: files/b, notify: msg#done}
              - exec:
                  - hello: {command: ["echo", "hi"], unless: "test -e /tmp/fuzz/x", timeout: 5}
                  - shell: {command: "echo ${ data.names[0] } | cat", shell: true, returns: [0, 1]}
              - msg:
                  - done: {message: "{{ lookup('exec#hello.stdout') }}", control: {if: "data.port > 80"}, meta: {noop: true}}
            nodes:
              "web[0-9]*.example.com": [web.yaml]
              /db-(1|2)+/: db.yaml
            """;

    private static final String SPECIAL = ":-[]{}#'\"$|>&*!%@`,?\t\n \0\u0001\u001b\u007f";
    /** Longer edits: odd tags, anchors, escapes of control characters, path spellings, nesting past the limits. */
    private static final List<String> TOKENS = List.of("!!int ", "!!bool ", "!!float ", "!!binary ", "!foo ", "&a ", "*a",
            "\\0", "\\x01", "//", "/../", "/./", "[".repeat(250), "{a: ".repeat(250), "${".repeat(100), "((((((((((".repeat(500));

    @Provide
    Arbitrary<Tuple.Tuple3<Integer, Integer, String>> edits() {
        Arbitrary<String> inserted = Arbitraries.oneOf(
                Arbitraries.of(SPECIAL.chars().mapToObj(c -> String.valueOf((char) c)).toList()), Arbitraries.of(TOKENS));
        return Arbitraries.integers().between(0, 3).flatMap(kind ->
                Arbitraries.integers().between(0, SEED.length() - 1).flatMap(at -> inserted.map(c -> Tuple.of(kind, at, c))));
    }

    @Property(tries = 400)
    void compilingNeverThrowsAnythingButPositionedProblems(@ForAll("edits") Tuple.Tuple3<Integer, Integer, String> edit,
                                                           @ForAll("edits") Tuple.Tuple3<Integer, Integer, String> second) throws Exception {
        String text = apply(apply(SEED, edit), second);
        Path dir = Files.createTempDirectory("fuzz");
        try {
            Path manifest = Files.writeString(dir.resolve("site.yaml"), text);
            new Manifests(dir).compile(manifest, Map.of());
        } catch (ManifestException e) {
            assertThat(e.problems()).isNotEmpty();
            for (Problem p : e.problems()) {
                assertThat(p.mark().line()).isPositive();
                assertThat(p.mark().column()).isPositive();
                assertThat(p.message()).isNotBlank().doesNotContain("Exception");
            }
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static String apply(String text, Tuple.Tuple3<Integer, Integer, String> edit) {
        if (text.isEmpty()) return text;
        int at = Math.min(edit.get2(), text.length() - 1);
        return switch (edit.get1()) {
            case 0 -> text.substring(0, at) + edit.get3() + text.substring(at);          // insert
            case 1 -> text.substring(0, at) + text.substring(at + 1);                    // delete
            case 2 -> text.substring(0, at) + edit.get3() + text.substring(at + 1);      // replace one character
            default -> text.substring(0, at);                                            // truncate
        };
    }
}
