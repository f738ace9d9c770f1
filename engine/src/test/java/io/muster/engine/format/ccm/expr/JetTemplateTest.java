package io.muster.engine.format.ccm.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** CCM's Jet templates: through jet() in an expression, as CCM's templates call it, and on their own. */
class JetTemplateTest {
    private static final Map<String, Object> DATA = new LinkedHashMap<>();

    static {
        DATA.put("service", "web");
        DATA.put("port", 8443L);
        DATA.put("tls", true);
        DATA.put("users", List.of("ann", "bob"));
        DATA.put("limits", new LinkedHashMap<>(Map.of("cpu", 2L)));
        DATA.put("none", List.of());
    }

    private static final CcmEnv ENV = CcmEnv.of(DATA, Map.of("os", "debian", "host", "db1"), Map.of("LANG", "C"));

    private static Object render(String template) throws CcmSyntaxException {
        return CcmTemplate.parse(template).render(ENV);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '"', textBlock = """
            {{ jet('[[ data.service ]]:[[ Data.port ]]') }} => web:8443
            {{ jet('[[ facts.os ]]/[[ Facts.host ]]') }} => debian/db1
            {{ jet('[[ .Data.service ]] on [[ .Facts.host ]]') }} => web on db1
            {{ jet('<< data.service >>', '<<', '>>') }} => web
            {{ jet('[[ if data.tls ]]https[[ else ]]http[[ end ]]') }} => https
            {{ jet('[[ if data.port < 1024 ]]low[[ else if data.port < 9000 ]]mid[[ else ]]high[[ end ]]') }} => mid
            {{ jet('[[ if facts.os == \\"debian\\" ]]apt[[ end ]]') }} => apt
            {{ jet('[[ name := data.service ]][[ name ]]-[[ name ]]') }} => web-web
            {{ jet('[[ if isset(data.service) ]]set[[ end ]][[ if isset(data.absent) ]]absent[[ end ]]') }} => set
            {{ jet('[[ range data.users ]]<[[ . ]]>[[ end ]]') }} => <ann><bob>
            {{ jet('[[ range i, u := data.users ]][[ i ]]=[[ u ]] [[ end ]]') }} => "0=ann 1=bob "
            {{ jet('[[ range k, v := data.limits ]][[ k ]]:[[ v ]][[ end ]]') }} => cpu:2
            {{ jet('[[ range data.none ]]x[[ else ]]empty[[ end ]]') }} => empty
            {{ jet('[[ len(data.users) ]] users') }} => 2 users
            {{ jet('[[ environ.LANG ]]/[[ .Environ.LANG ]]') }} => C/C
            {{ jet('a {* a comment *}b') }} => a b
            {{ jet('') }} => ""
            {{ jet('no tags at all') }} => no tags at all
            """)
    void jetRendersWhatCcmsTestsWrite(String template, String expected) throws CcmSyntaxException {
        assertThat(render(template)).isEqualTo(expected);
    }

    @Test
    void trimMarkersEatTheWhiteSpaceBesideATag() throws CcmSyntaxException {
        String text = "users:\n[[- range data.users ]]\n  - [[ . ]]\n[[- end ]]\n";
        assertThat(JetTemplate.parse(text, "[[", "]]").render(ENV)).isEqualTo("users:\n  - ann\n  - bob\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '"', textBlock = """
            {{ jet() }} => column 4: jet(): jet requires 1 or 3 arguments
            {{ jet('a', '<<') }} => column 4: jet(): jet requires 1 or 3 arguments
            {{ jet(123) }} => column 4: jet(): jet requires a string argument for template body
            {{ jet('x', 1, '>>') }} => column 4: jet(): jet requires a string argument for left delimiter
            {{ jet('x', '<<', 1) }} => column 4: jet(): jet requires a string argument for right delimiter
            {{ jet('[[ if data.tls ]]x') }} => column 4: jet(): in the template: column 4: this if has no end
            {{ jet('[[ if ]]x[[ end ]]') }} => column 4: jet(): in the template: column 6: expected an expression
            {{ jet('[[ block x() ]]') }} => column 4: jet(): in the template: column 4: 'block' in a Jet template is not supported by muster
            """)
    void mistakesAreNamed(String template, String message) {
        assertThatThrownBy(() -> render(template)).hasMessage(message);
    }
}
