package io.muster.engine.format.ccm.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CcmTemplateTest {
    private static final Map<String, Object> DATA = new HashMap<>(Map.of(
            "package", "nginx", "version", "1.24", "port", 443, "tls", false, "names", List.of("x", "y")));

    static {
        DATA.put("unset", null);
        DATA.put("blank", "");
    }

    private static final CcmEnv ENV = CcmEnv.of(DATA, Map.of("host", "db1", "role", "db"), Map.of("LANG", "C"));

    private static Object render(String text) {
        try {
            return CcmTemplate.parse(text).render(ENV);
        } catch (CcmSyntaxException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void bothDelimitersRenderInsideText() {
        assertThat(render("install {{ Data.package }}-${ Data.version } on ${Facts.host}")).isEqualTo("install nginx-1.24 on db1");
        assertThat(render("{{Data.package}}{{ Data.version }}")).isEqualTo("nginx1.24");
        assertThat(render("no parts here")).isEqualTo("no parts here");
        assertThat(render("")).isEqualTo("");
    }

    @Test
    void aLoneExpressionKeepsItsTypeEvenWithWhiteSpaceAround() {
        assertThat(render("{{ Data.port }}")).isEqualTo(443);
        assertThat(render("  ${ Data.port + 1 }\n")).isEqualTo(444L);
        assertThat(render("{{ Data.tls }}")).isEqualTo(false);
        assertThat(render("${ Data.names }")).isEqualTo(List.of("x", "y"));
        assertThat(render("port {{ Data.port }}")).isEqualTo("port 443");
    }

    @Test
    void valuesInTextAreWrittenAsGoWritesThem() {
        assertThat(render("[{{ Data.unset }}] [{{ Data.blank }}] [{{ Data.names }}] [{{ 2.50 }}]")).isEqualTo("[<nil>] [] [[x y]] [2.5]");
    }

    @Test
    void renderTextWritesALoneExpressionAsTextToo() throws CcmSyntaxException {
        assertThat(CcmTemplate.parse("{{ Data.port }}").renderText(ENV)).isEqualTo("443");
    }

    @Test
    void dollarBeforeDoubleBracesIsALiteralDollar() {
        assertThat(render("${{ Data.package }}")).isEqualTo("$nginx");
        assertThat(render("cost: $5 and ${{ Data.port }}")).isEqualTo("cost: $5 and $443");
    }

    @Test
    void closingDelimitersInsideQuotesOrBracesDoNotClose() {
        assertThat(render("{{ Data.package + '}}' }}")).isEqualTo("nginx}}");
        assertThat(render("${ \"}\" + Data.package }")).isEqualTo("}nginx");
        assertThat(render("${ map(Data.names, { # + '!' }) | join() }")).isEqualTo("x!y!");
        assertThat(render("${ filter([1, 5, 9], { # > 3 }) }")).isEqualTo(List.of(5L, 9L));
    }

    @Test
    void anOpenerNeverClosedIsText() {
        assertThat(render("{{ not closed")).isEqualTo("{{ not closed");
        assertThat(render("${ not closed")).isEqualTo("${ not closed");
        assertThat(CcmTemplate.containsExpression("{{ not closed")).isFalse();
        assertThat(CcmTemplate.containsExpression("a {{ b }}")).isTrue();
    }

    @Test
    void matchedSaysWhetherAnyPartGaveAValue() throws CcmSyntaxException {
        CcmEnv hiera = ENV.restricted();
        assertThat(CcmTemplate.parse("role:{{ lookup('facts.role') }}").renderMatched(hiera)).isEqualTo(new CcmTemplate.Matched("role:db", true));
        assertThat(CcmTemplate.parse("env:{{ lookup('facts.env') }}").renderMatched(hiera)).isEqualTo(new CcmTemplate.Matched("env:", false));
        assertThat(CcmTemplate.parse("global").renderMatched(hiera)).isEqualTo(new CcmTemplate.Matched("global", true));
    }

    @Test
    void syntaxErrorsArePlacedInTheTemplate() {
        assertThatThrownBy(() -> CcmTemplate.parse("name: {{ Data.x + }}")).isInstanceOf(CcmSyntaxException.class)
                .hasMessage("column 18: unexpected end of the expression");
        assertThatThrownBy(() -> CcmTemplate.parse("line one\n  two ${ 1 @ 2 }")).isInstanceOf(CcmSyntaxException.class)
                .hasMessage("line 2, column 12: unexpected character '@'");
        assertThatThrownBy(() -> CcmTemplate.parse("a {{   }} b")).hasMessage("column 5: empty expression in '{{   }}'");
    }

    @Test
    void evaluationErrorsArePlacedInTheTemplate() throws CcmSyntaxException {
        CcmTemplate template = CcmTemplate.parse("ok {{ Data.port }} then {{ lookup('data.nope') }}");
        assertThatThrownBy(() -> template.render(ENV)).isInstanceOf(CcmEvaluationException.class)
                .hasMessage("column 28: lookup(): missing key 'data.nope' in environment");
    }

    @Test
    void filesAndTemplatesReadRelativeToTheManifestDirectory(@TempDir Path dir) throws IOException, CcmSyntaxException {
        Files.writeString(dir.resolve("motd.templ"), "Welcome to {{ Facts.host }} ({{ Data.package }})");
        Files.writeString(dir.resolve("banner.txt"), "hello {{ not rendered }}");
        CcmEnv env = ENV.withFiles(CcmFiles.under(dir));
        assertThat(CcmTemplate.parse("{{ template('motd.templ') }}").render(env)).isEqualTo("Welcome to db1 (nginx)");
        assertThat(CcmTemplate.parse("{{ template('inline ' + Data.package) }}").render(env)).isEqualTo("inline nginx");
        assertThat(CcmTemplate.parse("{{ file('banner.txt') }}").render(env)).isEqualTo("hello {{ not rendered }}");
        assertThat(CcmTemplate.parse("${ readFile('" + dir.resolve("banner.txt") + "') }").render(env)).isEqualTo("hello {{ not rendered }}");
        assertThatThrownBy(() -> CcmTemplate.parse("{{ file('absent') }}").render(env))
                .hasMessageStartingWith("column 4: file(): failed to read file '" + dir.resolve("absent") + "'");
        Files.writeString(dir.resolve("page.jet"), "[[ Data.package ]] on [[ facts.host ]]");
        assertThat(CcmTemplate.parse("{{ template('page.jet') }}").render(env)).as("a .jet file is a Jet template").isEqualTo("nginx on db1");
        assertThat(CcmTemplate.parse("{{ jet('page.jet') }}").render(env)).isEqualTo("nginx on db1");
    }
}
