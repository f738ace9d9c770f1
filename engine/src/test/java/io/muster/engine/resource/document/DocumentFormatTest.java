package io.muster.engine.resource.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class DocumentFormatTest {

    private static Map<String, Object> read(DocumentFormat format, String text) {
        return format.read(text.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @EnumSource(DocumentFormat.class)
    void valuesSurviveARoundTrip(DocumentFormat format) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("looks like numbers", List.of("0644", "1e3", "0x1F", "true", "null", "~", ""));
        document.put("text", List.of("multi\nline\n", " padded ", "a: b", "# not a comment", "bell\u0007", "é ✓"));
        document.put("numbers", Arrays.asList(0, -1, 1.5, 12345678901234567890.0, null, false));
        document.put("empty", Map.of());
        document.put("nested", Map.of("list", List.of(List.of(1, 2), List.of())));
        Map<String, Object> again = read(format, format.render(document));
        assertThat(Values.same(again, document)).as(format.render(document)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(DocumentFormat.class)
    void anEmptyFileIsAnEmptyDocument(DocumentFormat format) {
        assertThat(read(format, " \n")).isEmpty();
    }

    @Test
    void yamlKeysBecomeStringsAndAFileOfCommentsIsEmpty() {
        assertThat(read(DocumentFormat.YAML, "8080: web\ntrue: yes\n")).containsOnlyKeys("8080", "true");
        assertThat(read(DocumentFormat.YAML, "# nothing yet\n")).isEmpty();
    }

    @Test
    void whatIsNotOneMapOfFieldsIsRefusedSayingWhy() {
        assertThatThrownBy(() -> read(DocumentFormat.YAML, "a: 1\n---\nb: 2\n")).hasMessage("not valid YAML: expected one YAML document, found 2");
        assertThatThrownBy(() -> read(DocumentFormat.YAML, "a: 1\na: 2\n")).hasMessage("not valid YAML: line 2 column 1: found duplicate key a");
        assertThatThrownBy(() -> read(DocumentFormat.JSON, "[1]"))
                .hasMessage("expected a map of fields at the top of the JSON document, found a list");
        assertThatThrownBy(() -> DocumentFormat.JSON.read(new byte[] {(byte) 0xff}))
                .hasMessage("not UTF-8 text, so not JSON");
    }

    @Test
    void aFileNestedDeeperThanAManifestMayIsRefusedWhereItGoesTooDeepNotWithAStackOverflow() {
        String flow = "a: " + "[".repeat(5000) + "]".repeat(5000) + "\n";
        assertThatThrownBy(() -> read(DocumentFormat.YAML, flow))
                .hasMessage("not valid YAML: line 1 column 203: nested deeper than 200 levels (the limit)");
        StringBuilder block = new StringBuilder("a:\n");
        for (int i = 1; i < 3000; i++) block.append("  ".repeat(i)).append("-\n");
        assertThatThrownBy(() -> read(DocumentFormat.YAML, block.toString()))
                .hasMessage("not valid YAML: line 201 column 401: nested deeper than 200 levels (the limit)");
        assertThatThrownBy(() -> read(DocumentFormat.JSON, "{\"a\": " + "[".repeat(5000) + "]".repeat(5000) + "}"))
                .hasMessageContaining("nesting deeper than 200 levels");
    }

    @Test
    void theFormatFollowsTheExtension() {
        assertThat(DocumentFormat.byExtension("a.JSON")).isEqualTo(DocumentFormat.JSON);
        assertThat(DocumentFormat.byExtension("a.yml")).isEqualTo(DocumentFormat.YAML);
        assertThat(DocumentFormat.byExtension("a.yaml")).isEqualTo(DocumentFormat.YAML);
        assertThat(DocumentFormat.byExtension("a.conf")).isNull();
    }
}
