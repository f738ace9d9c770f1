package io.muster.engine.format.ccm.expr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class CcmTemplatePropertiesTest {
    private static final CcmEnv ENV = CcmEnv.of(Map.of(), Map.of(), Map.of());

    private static Object render(String text) throws CcmSyntaxException {
        return CcmTemplate.parse(text).render(ENV);
    }

    @Property
    void textWithoutAnOpenerIsItself(@ForAll String text) throws CcmSyntaxException {
        Assume.that(!text.contains("{{") && !text.contains("${"));
        assertThat(render(text)).isEqualTo(text);
        assertThat(CcmTemplate.containsExpression(text)).isFalse();
    }

    @Property
    void anyStringSurvivesAQuotedLiteral(@ForAll String text, @ForAll boolean doubleQuoted) throws CcmSyntaxException {
        char quote = doubleQuoted ? '"' : '\'';
        String escaped = text.replace("\\", "\\\\").replace(String.valueOf(quote), "\\" + quote);
        assertThat(render("[{{ " + quote + escaped + quote + " }}]")).isEqualTo("[" + text + "]");
        assertThat(render("${ " + quote + escaped + quote + " }")).isEqualTo(text);
    }

    @Property
    void integerArithmeticIsGo_s(@ForAll int a, @ForAll int b) throws CcmSyntaxException {
        assertThat(render("{{ (" + a + ") + (" + b + ") }}")).isEqualTo((long) a + b);
        assertThat(render("{{ (" + a + ") * (" + b + ") }}")).isEqualTo((long) a * b);
        assertThat(render("{{ (" + a + ") < (" + b + ") }}")).isEqualTo(a < b);
        assertThat(render("n={{ (" + a + ") - (" + b + ") }}")).isEqualTo("n=" + ((long) a - b));
    }

    @Property
    void dollarBeforeDoubleBracesStaysADollar(@ForAll int n) throws CcmSyntaxException {
        assertThat(render("${{ " + n + " }}")).isEqualTo("$" + n);
    }
}
