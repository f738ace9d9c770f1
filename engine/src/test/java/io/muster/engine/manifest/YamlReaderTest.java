package io.muster.engine.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class YamlReaderTest {
    private static final Path FILE = Path.of("m.yaml");

    @Test
    void keepsLineAndColumnOfEveryValue() throws Exception {
        YNode.Dict root = (YNode.Dict) YamlReader.parse(FILE, "a: 1\nb:\n  c: [x, y]\n");
        YNode.Dict b = (YNode.Dict) root.get("b");
        YNode.Seq c = (YNode.Seq) b.get("c");
        assertThat(c.items().get(1).mark()).isEqualTo(new Mark(FILE, 3, 10));
    }

    @Test
    void usesYaml12CoreTypes() throws Exception {
        YNode.Dict root = (YNode.Dict) YamlReader.parse(FILE, "mode: 0644\nq: '0644'\nyes: yes\nt: true\nn: ~\n");
        assertThat(root.get("mode").plain()).isEqualTo(644);
        assertThat(root.get("q").plain()).isEqualTo("0644");
        assertThat(root.get("yes").plain()).isEqualTo("yes");
        assertThat(root.get("t").plain()).isEqualTo(true);
        assertThat(root.get("n").plain()).isNull();
    }

    @Test
    void duplicateKeysNameBothLines() {
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: 1\nb: 2\na: 3\n"))
                .hasMessage("m.yaml:3:1: duplicate key 'a' (first defined at line 1)");
    }

    @Test
    void syntaxErrorsPointAtTheProblem() {
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: [1, 2\nb: 3\n"))
                .isInstanceOf(ManifestException.class)
                .hasMessageStartingWith("m.yaml:2:")
                .hasMessageContaining("invalid YAML");
    }

    @Test
    void oneDocumentOnly() {
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: 1\n---\nb: 2\n")).hasMessageContaining("expected one YAML document, found 2");
        assertThatThrownBy(() -> YamlReader.parse(FILE, "")).hasMessage("m.yaml:1:1: the manifest is empty");
    }

    // --- limits: each reported where it is passed, never a stack overflow

    @Test
    void nestingIsLimitedTo200LevelsAndTheLimitIsReportedWhereItIsPassed() throws Exception {
        YNode atLimit = YamlReader.parse(FILE, "[".repeat(YamlReader.MAX_DEPTH) + "]".repeat(YamlReader.MAX_DEPTH));
        assertThat(atLimit.plain()).isInstanceOf(java.util.List.class);
        for (int depth : new int[] {YamlReader.MAX_DEPTH + 1, 5_000, 100_000}) {
            assertThatThrownBy(() -> YamlReader.parse(FILE, "a:\n  b: " + "[".repeat(depth) + "]".repeat(depth)))
                    .as("%d deep", depth)
                    .hasMessage("m.yaml:2:" + (6 + 198) + ": nested deeper than 200 levels (the limit)"); // two maps, then the 199th [
        }
        String block = "a:\n" + java.util.stream.IntStream.range(1, 300).mapToObj(i -> "  ".repeat(i) + "k:\n").collect(
                java.util.stream.Collectors.joining());
        assertThatThrownBy(() -> YamlReader.parse(FILE, block)).hasMessageContaining("nested deeper than 200 levels");
    }

    @Test
    void aliasesAreLimitedAndCannotMultiplyIntoBillionsOfValues() {
        String tooMany = "a: &a [x]\nb: [" + "*a, ".repeat(YamlReader.MAX_ALIASES) + "*a]\n";
        assertThatThrownBy(() -> YamlReader.parse(FILE, tooMany))
                .hasMessage("m.yaml:2:" + (5 + 4 * YamlReader.MAX_ALIASES) + ": more than 1000 aliases of lists and maps (the limit)");
        StringBuilder laughs = new StringBuilder("l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) laughs.append("l%d: &l%d [%s]\n".formatted(i, i, ("*l" + (i - 1) + ", ").repeat(9) + "*l" + (i - 1)));
        assertThatThrownBy(() -> YamlReader.parse(FILE, laughs.toString()))
                .hasMessageMatching("m\\.yaml:\\d+:\\d+: more than 2000000 values once aliases are expanded \\(the limit\\)");
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: &a [*a]\n")).hasMessageContaining("nested deeper than 200 levels");
    }

    @Test
    void aManifestOver32MiBIsRefusedWithoutReadingItWhole(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path big = java.nio.file.Files.writeString(dir.resolve("big.yaml"), "a: '" + "x".repeat(YamlReader.MAX_BYTES) + "'\n");
        assertThatThrownBy(() -> YamlReader.read(big)).hasMessage(big + ":1:1: larger than 32 MiB, the limit for a manifest or facts file");
        assertThatThrownBy(() -> YamlReader.read(Path.of("/dev/zero")))
                .hasMessage("/dev/zero:1:1: cannot read: not a regular file (a directory, FIFO or device)");
        // lines as a manifest has them (snakeyaml-engine scans one 32 MiB scalar in quadratic time)
        String line = "- " + "x".repeat(61) + "\n";
        String lines = line.repeat(YamlReader.MAX_BYTES / line.length());
        Path justBelow = java.nio.file.Files.writeString(dir.resolve("ok.yaml"), lines + "#".repeat(YamlReader.MAX_BYTES - lines.length()));
        assertThat(justBelow).hasSize(YamlReader.MAX_BYTES);
        assertThat(YamlReader.read(justBelow)).isInstanceOf(YNode.Seq.class);
    }

    @Test
    void explicitTagsTheValueDoesNotFitAreLocatedErrors() throws Exception {
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: !!int abc\n")).hasMessage("m.yaml:1:4: 'abc' is not a valid !!int");
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: !!bool yes\n")).hasMessage("m.yaml:1:4: 'yes' is not a valid !!bool");
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: !!float x\n")).hasMessage("m.yaml:1:4: 'x' is not a valid !!float");
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: !foo x\n")).hasMessageStartingWith("m.yaml:1:4: unsupported tag !foo;");
        assertThatThrownBy(() -> YamlReader.parse(FILE, "a: !!timestamp 2020-01-01\n")).hasMessageStartingWith("m.yaml:1:4: unsupported tag !!timestamp;");
        assertThat(((YNode.Dict) YamlReader.parse(FILE, "a: !!int '12'\nb: !!str 12\n")).plain()).isEqualTo(java.util.Map.of("a", 12, "b", "12"));
    }
}
