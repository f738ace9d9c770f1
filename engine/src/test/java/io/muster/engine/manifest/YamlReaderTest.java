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
}
