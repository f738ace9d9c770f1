package io.muster.engine.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.util.FileReads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemplateDialectTest {
    @TempDir
    Path dir;

    private Scope ccm() {
        return new Scope(Map.of("port", 8080, "pkg", "nginx"), Map.of("os", Map.of("family", "debian"), "cpus", 4),
                Map.of("HOME", "/root"), dir, Lookup.NONE, FileReads.NONE, TemplateDialect.CCM);
    }

    @Test
    void ccmTemplatesRenderAsTextWithDataFactsAndEnviron() {
        Scope scope = ccm();
        assertThat(scope.dialect().render("{{ Data.pkg }} on ${ Facts.os.family } in {{ Environ.HOME }}", scope))
                .isEqualTo("nginx on debian in /root");
        assertThat(scope.dialect().render("{{ Data.port }}", scope)).as("a resource's string field").isEqualTo("8080");
        assertThat(scope.dialect().render("${{ lookup('data.pkg') }}", scope)).isEqualTo("$nginx");
    }

    @Test
    void ccmFileReadsRelativeToTheManifestDirectory() throws IOException {
        Files.writeString(dir.resolve("motd"), "welcome");
        Scope scope = ccm();
        assertThat(scope.dialect().render("{{ file('motd') }}!", scope)).isEqualTo("welcome!");
        assertThatThrownBy(() -> scope.dialect().render("{{ file('absent') }}", scope)).isInstanceOf(TemplateException.class)
                .hasMessageStartingWith("column 4: file(): file('absent'): cannot read " + dir.resolve("absent"));
    }

    @Test
    void ccmErrorsAreTemplateExceptionsWithTheColumn() {
        assertThatThrownBy(() -> TemplateDialect.CCM.check("a {{ Data. }}")).isInstanceOf(TemplateException.class)
                .hasMessage("column 11: expected a name after '.', found the end of the expression");
        assertThatThrownBy(() -> ccm().dialect().render("{{ Data.pkg + 1 }}", ccm())).isInstanceOf(TemplateException.class)
                .hasMessage("column 13: invalid operation: string + int (string 'nginx' + int 1)");
    }

    @Test
    void muster_sOwnTemplatesAreUnchanged() {
        Scope scope = new Scope(Map.of("port", 8080), Map.of(), Map.of(), dir, Lookup.NONE);
        assertThat(scope.dialect()).isEqualTo(TemplateDialect.NATIVE);
        assertThat(scope.dialect().render("${ data.port }", scope)).isEqualTo(8080);
        assertThat(scope.withDialect(TemplateDialect.CCM).dialect().containsExpression("${ data.port }")).isTrue();
    }

    @Test
    void ccmDefersAnExecSCommandAndGuardsAndAFileSContentWhenTheyHoldATemplate() {
        assertThat(TemplateDialect.CCM.deferred("exec", "command", "echo {{ Data.x }}")).isTrue();
        assertThat(TemplateDialect.CCM.deferred("exec", "environment", List.of("A=1", "B={{ Data.x }}"))).isTrue();
        assertThat(TemplateDialect.CCM.deferred("exec", "unless", "test -f /x")).as("no template: known now").isFalse();
        assertThat(TemplateDialect.CCM.deferred("file", "content", "{{ Data.x }}")).isTrue();
        assertThat(TemplateDialect.CCM.deferred("file", "owner", "{{ Data.x }}")).isFalse();
        assertThat(TemplateDialect.NATIVE.deferred("file", "content", "{{ data.x }}")).isFalse();
    }

    @Test
    void ccmReadsNameTheFactsVariablesAndFilesTheyNeed() {
        TemplateReads reads = new TemplateReads(TemplateDialect.CCM);
        reads.addValue(List.of("{{ Facts.os.family }} {{ lookup('facts.cpus') }}", "{{ Environ.HOME + lookup('environ.USER', '') }}",
                "{{ file('banner.txt') }} {{ lookup('data.x') }}"));
        assertThat(reads.facts()).containsExactly("cpus", "os");
        assertThat(reads.allFacts()).isFalse();
        assertThat(reads.env()).containsExactly("HOME", "USER");
        assertThat(reads.computedEnv()).isFalse();
        assertThat(reads.files()).containsExactly("banner.txt");
        TemplateReads computed = new TemplateReads(TemplateDialect.CCM);
        computed.addValue("{{ Facts[Data.key] }} {{ lookup('environ.' + Data.name) }}");
        assertThat(computed.allFacts()).isTrue();
        assertThat(computed.computedEnv()).isTrue();
    }
}
