package io.muster.engine.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void readsWhatItWritesKeepingKeyOrderAndNumberSpelling() {
        String text = """
                {
                  "z": 1,
                  "a": [
                    true,
                    null,
                    1.50,
                    -2e3,
                    12345678901234567890
                  ],
                  "s": "tab\\t \\"quoted\\" \\u00e9 \\/"
                }""";
        Object value = Json.parse(text);
        assertThat(value).isEqualTo(Map.of("z", 1L,
                "a", Arrays.asList(true, null, new BigDecimal("1.50"), new BigDecimal("-2e3"), new BigInteger("12345678901234567890")),
                "s", "tab\t \"quoted\" é /"));
        assertThat(List.copyOf(((Map<?, ?>) value).keySet())).isEqualTo(List.of("z", "a", "s"));
        assertThat(Json.pretty(Json.parse(Json.pretty(value)))).isEqualTo(Json.pretty(value));
        assertThat(Json.pretty(value)).contains("1.50");
    }

    @Test
    void acceptsEmptyContainersWhitespaceAndAByteOrderMark() {
        assertThat(Json.parse("\uFEFF \t\r\n{ \"a\" : [ ] , \"b\" : { } }\n")).isEqualTo(Map.of("a", List.of(), "b", Map.of()));
    }

    @Test
    void mistakesAreReportedWithLineAndColumn() {
        assertThatThrownBy(() -> Json.parse("{\n  \"a\": 1,\n}")).hasMessage("line 3 column 1: expected a quoted key, found '}'");
        assertThatThrownBy(() -> Json.parse("{\"a\": 1} x")).hasMessage("line 1 column 10: expected the end of the document, found 'x'");
        assertThatThrownBy(() -> Json.parse("{\"a\": 1, \"a\": 2}")).hasMessage("line 1 column 10: duplicate key \"a\"");
        assertThatThrownBy(() -> Json.parse("[1, 2")).hasMessage("line 1 column 6: expected ',', found the end of the document");
        assertThatThrownBy(() -> Json.parse("[01]")).hasMessage("line 1 column 3: leading zeros are not allowed");
        assertThatThrownBy(() -> Json.parse("{'a': 1}")).hasMessage("line 1 column 2: expected a quoted key, found '''");
        assertThatThrownBy(() -> Json.parse("[\"a\nb\"]")).hasMessage("line 1 column 4: control character in a string (escape it)");
        assertThatThrownBy(() -> Json.parse("[" .repeat(300))).hasMessageContaining("nesting deeper than 200 levels");
    }
}
