package io.muster.engine.resource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TypedParamsTest {
    private static final Schema SCHEMA = Schema.of("path", Set.of(),
            Property.required("path", Type.PATH),
            Property.oneOf("ensure", "present", "directory"),
            Property.optional("owner", Type.STRING),
            Property.optional("force", Type.BOOLEAN));

    enum Ensure { PRESENT, DIRECTORY }

    enum Incomplete { PRESENT }

    private static TypedParams params(Map<String, Object> values) {
        return new TypedParams("demo", SCHEMA, new Params("x", values, Path.of("/")));
    }

    @Test
    void aPropertyNotInTheSchemaIsABugEvenWhenUnset() {
        assertThatThrownBy(() -> params(Map.of()).string("ownr", "root"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("demo: property 'ownr' is not in the schema");
    }

    @Test
    void aReadOfTheWrongTypeIsABug() {
        assertThatThrownBy(() -> params(Map.of("owner", "root")).bool("owner", false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("demo: property 'owner' is a string in the schema, not read as true or false");
    }

    @Test
    void anOptionalPropertyNeedsAFallbackOrAnOptional() {
        assertThatThrownBy(() -> params(Map.of("owner", "root")).string("owner"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("demo: property 'owner' may be unset; read it with a fallback or as an Optional");
        assertThat(params(Map.of()).optionalString("owner")).isEmpty();
        assertThat(params(Map.of()).string("owner", "root")).isEqualTo("root");
        assertThat(params(Map.of("owner", "adm")).optionalString("owner")).contains("adm");
    }

    @Test
    void aChoiceNeedsAConstantForEveryAllowedValue() {
        assertThatThrownBy(() -> params(Map.of()).choice("ensure", Incomplete.PRESENT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("demo: property 'ensure' allows 'directory', which Incomplete has no constant for");
        assertThatThrownBy(() -> params(Map.of()).choice("owner", Ensure.PRESENT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("demo: property 'owner' is not a oneOf property; read it as a string");
    }

    @Test
    void aChoiceIsTheSameConstantInATurkishLocale() {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("tr-TR"));
        try {
            assertThat(params(Map.of("ensure", "directory")).choice("ensure", Ensure.PRESENT)).isEqualTo(Ensure.DIRECTORY);
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void anAbsolutePathIsCheckedAndNormalized() throws Exception {
        assertThat(params(Map.of("path", "/etc/../tmp/x")).absolutePath("path")).isEqualTo(Path.of("/tmp/x"));
        assertThatThrownBy(() -> params(Map.of("path", "tmp/x")).absolutePath("path"))
                .isInstanceOf(InvalidResourceException.class)
                .hasMessage("expected an absolute path, got 'tmp/x'");
    }
}
