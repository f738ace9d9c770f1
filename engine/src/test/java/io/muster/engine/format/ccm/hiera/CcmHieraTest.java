package io.muster.engine.format.ccm.hiera;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

class CcmHieraTest {
    private static final Map<String, Object> FACTS = Map.of("env", "staging", "role", "CACHE", "fqdn", "c1.example.net", "weight", 3);

    @SuppressWarnings("unchecked")
    private static Map<String, Object> yaml(String text) {
        return (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
    }

    private static Map<String, Object> resolve(String document) throws CcmHieraException {
        return CcmHiera.resolve(yaml(document), FACTS);
    }

    private static final String LEVELS = """
            data:
              level: base
              tags: [common]
              tuning: {workers: 2, cache: small}
            overrides:
              env:staging:
                level: staging
                tags: [stage]
                tuning: {cache: medium}
              role:cache:
                level: role
                tags: [cache]
                tuning: {workers: 8}
            """;

    @Test
    void firstMergesTheFirstMatchingLevelShallowlyAndStops() throws CcmHieraException {
        Map<String, Object> data = resolve("""
                hierarchy:
                  order: ["env:{{ lookup('facts.env') }}", "role:${ lower(lookup('facts.role')) }"]
                  merge: first
                """ + LEVELS);
        assertThat(data).isEqualTo(Map.of("level", "staging", "tags", List.of("stage"), "tuning", Map.of("cache", "medium")));
    }

    @Test
    void firstIsTheDefaultMergeAndSkipsLevelsThatAreNotThere() throws CcmHieraException {
        Map<String, Object> data = resolve("""
                hierarchy:
                  order: ["host:{{ lookup('facts.fqdn') }}", "role:{{ lookup('facts.role') | lower() }}"]
                """ + LEVELS);
        assertThat(data.get("level")).isEqualTo("role");
        assertThat(data.get("tuning")).isEqualTo(Map.of("workers", 8L));
    }

    @Test
    void deepMergesEveryMatchingLevelInOrderTheLaterWinningListsConcatenating() throws CcmHieraException {
        Map<String, Object> data = resolve("""
                hierarchy:
                  order: ["env:{{ lookup('facts.env') }}", "role:{{ lookup('facts.role') | lower() }}"]
                  merge: Deep
                """ + LEVELS);
        assertThat(data).isEqualTo(Map.of("level", "role", "tags", List.of("common", "stage", "cache"),
                "tuning", Map.of("workers", 8L, "cache", "medium")));
    }

    @Test
    void noHierarchyMeansTheDefaultLevel() throws CcmHieraException {
        assertThat(resolve("""
                data: {port: 80}
                overrides:
                  default: {port: 8080}
                """)).isEqualTo(Map.of("port", 8080L));
    }

    @Test
    void levelsRenderingEmptyOrNamingTheDataAreSkipped() throws CcmHieraException {
        Map<String, Object> data = resolve("""
                hierarchy:
                  order: [data, "dc:{{ lookup('facts.datacenter') }}", "{{ Facts.absent }}", "env:%{env}"]
                  merge: deep
                data: {port: 80}
                overrides:
                  data: {port: 1}
                  "dc:": {port: 2}
                  "<nil>": {port: 3}
                  "env:%{env}": {port: 4}
                """);
        assertThat(data).isEqualTo(Map.of("port", 4L));
    }

    @Test
    void valuesAreTypedTemplatesRenderedWithFacts() throws CcmHieraException {
        Map<String, Object> data = resolve("""
                data:
                  weight: "{{ lookup('facts.weight') | int() }}"
                  name: "node-{{ Facts.fqdn | split('.') | first() }}"
                  missing: "{{ lookup('facts.nope') }}"
                  list: ["${ Facts.env }", 1.0]
                """);
        assertThat(data).isEqualTo(Map.of("weight", 3L, "name", "node-c1", "missing", "", "list", List.of("staging", 1L)));
    }

    @Test
    void theInputIsNotChanged() throws CcmHieraException {
        Map<String, Object> document = yaml("""
                hierarchy: {order: [default], merge: deep}
                data: {list: [1], nested: {a: 1}}
                overrides:
                  default: {list: [2], nested: {b: 2}}
                """);
        String before = document.toString();
        assertThat(CcmHiera.resolve(document, FACTS)).isEqualTo(Map.of("list", List.of(1L, 2L), "nested", Map.of("a", 1L, "b", 2L)));
        assertThat(document.toString()).isEqualTo(before);
    }

    @Test
    void anotherDataKey() throws CcmHieraException {
        Map<String, Object> document = yaml("""
                hierarchy: {order: [config, default]}
                config: {value: 1}
                overrides:
                  default: {value: 2}
                """);
        assertThat(CcmHiera.resolve(document, FACTS, "config")).isEqualTo(Map.of("value", 2L));
    }

    @Test
    void malformedDocumentsAreRefusedNamingWhere() {
        assertThatThrownBy(() -> resolve("hierarchy: {order: default}")).isInstanceOf(CcmHieraException.class)
                .hasMessage("hierarchy.order: hierarchy.order must be a list");
        assertThatThrownBy(() -> resolve("hierarchy: {order: [a, 2]}"))
                .hasMessage("hierarchy.order.1: hierarchy.order must contain only strings");
        assertThatThrownBy(() -> resolve("hierarchy: {order: [default], merge: both}\noverrides: {default: {a: 1}}"))
                .hasMessage("hierarchy.merge: unsupported merge mode 'both'; expected first or deep");
        assertThatThrownBy(() -> resolve("hierarchy: {order: [\"x:{{ 1 + }}\"]}"))
                .hasMessage("hierarchy.order.0: column 9: unexpected end of the expression");
        assertThatThrownBy(() -> resolve("data: {a: {b: [\"{{ file('/etc/passwd') }}\"]}}"))
                .hasMessage("data.a.b.0: column 4: file() is not available here: hierarchy data may call lookup() only");
    }
}
