package io.muster.engine.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TemplateTest {
    private final Scope scope = new Scope(
            Map.of("port", 8080, "names", List.of("a", "b"), "nested", Map.of("key", "value")),
            Map.of("os", Map.of("family", "debian")),
            Map.of("HOME", "/root"),
            Path.of("/tmp"),
            Lookup.NONE);

    private Object render(String text) {
        return Template.parse(text).render(scope);
    }

    @Test
    void rendersBothSyntaxesInsideText() {
        assertThat(render("Listen ${ data.port } on {{ facts.os.family }}\n")).isEqualTo("Listen 8080 on debian\n");
    }

    @Test
    void aWholeExpressionKeepsItsType() {
        assertThat(render("${ data.port }")).isEqualTo(8080);
        assertThat(render("${ data.names }")).isEqualTo(List.of("a", "b"));
        assertThat(render("${ data.port + 1 }")).isEqualTo(8081);
    }

    @Test
    void unknownNamesAreErrorsNamingThePathAndTheClosestKey() {
        assertThatThrownBy(() -> render("${ data.prot }"))
                .isInstanceOf(UnknownNameException.class)
                .hasMessage("unknown name 'data.prot' (did you mean 'data.port'?)");
        assertThatThrownBy(() -> render("${ nested.key }")).hasMessageStartingWith("unknown name 'nested.key'");
        assertThatThrownBy(() -> render("${ data.nested.kye }")).hasMessage("unknown name 'data.nested.kye' (did you mean 'data.nested.key'?)");
    }

    @Test
    void lookupReadsDataFactsAndEnvWithOptionalFallback() {
        assertThat(render("${ lookup('facts.os.family') }")).isEqualTo("debian");
        assertThat(render("${ lookup('env.HOME') }")).isEqualTo("/root");
        assertThat(render("${ lookup('data.missing', 'fallback') }")).isEqualTo("fallback");
        assertThatThrownBy(() -> render("${ lookup('data.missing') }")).hasMessageContaining("unknown name 'data.missing'");
    }

    @Test
    void syntaxErrorsAndUnterminatedExpressionsAreReported() {
        assertThatThrownBy(() -> render("${ data.port == }")).hasMessageStartingWith("syntax error in expression 'data.port =='");
        assertThatThrownBy(() -> render("x ${ data.port")).hasMessageStartingWith("unterminated '${'");
        assertThatThrownBy(() -> render("{{ }}")).hasMessageStartingWith("empty expression");
    }

    @Test
    void bracesInsideStringsAndMapsDoNotEndTheExpression() {
        assertThat(render("${ '}' + data.port }")).isEqualTo("}8080");
        assertThat(render("{{ {'a': 1}['a'] }}")).isEqualTo(1);
    }

    @Test
    void doubledDollarWritesALiteral() {
        assertThat(render("cost: $${HOME} and ${ data.port }")).isEqualTo("cost: ${HOME} and 8080");
    }

    @Test
    void javaClassesAreOutOfReach() {
        assertThatThrownBy(() -> render("${ java.lang.System.exit(1) }")).isInstanceOf(TemplateException.class);
        // JEXL's RESTRICTED permissions: a value's class may be named, but nothing is reached through it
        for (String escape : List.of("${ 'x'.getClass().forName('java.lang.Runtime') }",
                "${ new('java.io.File', '/etc/passwd').delete() }", "${ data.names.getClass().getClassLoader() }",
                "${ facts.getClass().getName() }")) {
            assertThatThrownBy(() -> render(escape)).as(escape).isInstanceOf(TemplateException.class);
        }
    }
}
