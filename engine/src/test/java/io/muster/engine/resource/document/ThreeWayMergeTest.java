package io.muster.engine.resource.document;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.util.Json;
import io.muster.engine.util.Maps;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The merge vectors of seed 004 (kubectl apply as Metacontroller emulates it), written as JSON with ' for ". */
class ThreeWayMergeTest {

    private static Map<String, Object> doc(String json) {
        return json == null ? null : Maps.cast((Map<?, ?>) Json.parse(json.replace('\'', '"')));
    }

    /** The merge, as pretty JSON: comparing text checks key and item order too. */
    private static String merge(String observed, String lastApplied, String desired) {
        return Json.pretty(ThreeWayMerge.merge(doc(observed), doc(lastApplied), doc(desired)));
    }

    private static String expected(String json) {
        return Json.pretty(doc(json));
    }

    @Test
    void desiredScalarsWinAndOthersFieldsStayInTheirPlace() {
        assertThat(merge("{'a': 1, 'other': 'x', 'b': 2}", null, "{'b': 3, 'c': 4}"))
                .isEqualTo(expected("{'a': 1, 'other': 'x', 'b': 3, 'c': 4}"));
    }

    @Test
    void noObservedDocumentGivesDesired() {
        assertThat(merge(null, "{'gone': 1}", "{'a': {'b': [1, 2]}}")).isEqualTo(expected("{'a': {'b': [1, 2]}}"));
    }

    @Test
    void nestedMapsMergeFieldByField() {
        assertThat(merge("{'spec': {'replicas': 1, 'paused': false, 'meta': {'owner': 'ops'}}}", null,
                "{'spec': {'replicas': 3, 'meta': {'team': 'web'}}}"))
                .isEqualTo(expected("{'spec': {'replicas': 3, 'paused': false, 'meta': {'owner': 'ops', 'team': 'web'}}}"));
    }

    @Test
    void aFieldDroppedFromTheManifestGoesOnlyIfMusterHadSetIt() {
        assertThat(merge("{'mine': 1, 'theirs': 2, 'keep': 3}", "{'mine': 1, 'keep': 3}", "{'keep': 3}"))
                .isEqualTo(expected("{'theirs': 2, 'keep': 3}"));
        assertThat(merge("{'a': {'mine': 1, 'theirs': 2}}", "{'a': {'mine': 1}}", "{'a': {}}"))
                .isEqualTo(expected("{'a': {'theirs': 2}}"));
    }

    @Test
    void aDroppedFieldGoesEvenWhenSomeoneElseChangedItsValue() {
        assertThat(merge("{'a': 'edited', 'b': 1}", "{'a': 'set'}", "{}")).isEqualTo(expected("{'b': 1}"));
    }

    @Test
    void aDroppedMapGoesWithWhatOthersAddedInsideIt() {
        assertThat(merge("{'a': {'mine': 1, 'theirs': 2}, 'b': 1}", "{'a': {'mine': 1}}", "{'b': 1}"))
                .isEqualTo(expected("{'b': 1}"));
    }

    @Test
    void aValueOfAnotherShapeIsReplaced() {
        assertThat(merge("{'a': 'scalar', 'b': {'x': 1}, 'c': [1]}", null, "{'a': {'x': 1}, 'b': [1], 'c': {'y': 2}}"))
                .isEqualTo(expected("{'a': {'x': 1}, 'b': [1], 'c': {'y': 2}}"));
    }

    @Test
    void nullIsAValueToSet() {
        assertThat(merge("{'a': 1}", null, "{'a': null}")).isEqualTo(expected("{'a': null}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"containerPort", "port", "mountPath", "name", "uid", "ip", "path"})
    void listsOfObjectsSharingAConventionalKeyMergeByIt(String key) {
        String observed = "{'l': [{'K': 1, 'v': 'old', 'extra': true}, {'K': 2, 'v': 'theirs'}, {'K': 3, 'v': 'mine'}]}";
        String last = "{'l': [{'K': 1, 'v': 'old'}, {'K': 3, 'v': 'mine'}]}";
        String desired = "{'l': [{'K': 4, 'v': 'new'}, {'K': 1, 'v': 'changed'}]}";
        assertThat(merge(observed.replace("K", key), last.replace("K", key), desired.replace("K", key)))
                .as("observed order, new items appended, muster's dropped item removed, others' item kept")
                .isEqualTo(expected("{'l': [{'K': 1, 'v': 'changed', 'extra': true}, {'K': 2, 'v': 'theirs'}, {'K': 4, 'v': 'new'}]}"
                        .replace("K", key)));
    }

    @Test
    void theFirstConventionalKeyEveryItemHasIsTheMergeKey() {
        // every item has name and port: port comes first; ip is not on every item
        assertThat(merge("{'l': [{'name': 'a', 'port': 80, 'ip': '1.2.3.4'}, {'name': 'b', 'port': 81}]}", null,
                "{'l': [{'name': 'renamed', 'port': 80}]}"))
                .isEqualTo(expected("{'l': [{'name': 'renamed', 'port': 80, 'ip': '1.2.3.4'}, {'name': 'b', 'port': 81}]}"));
    }

    @Test
    void theMergeKeyMustBeOnEveryItemOfEveryListIncludingLastApplied() {
        assertThat(merge("{'l': [{'name': 'a', 'port': 80}]}", "{'l': [{'name': 'a'}]}", "{'l': [{'name': 'a', 'port': 81}]}"))
                .as("port is missing from last-applied's item: merged by name")
                .isEqualTo(expected("{'l': [{'name': 'a', 'port': 81}]}"));
        assertThat(merge("{'l': [{'name': 'a'}, {'id': 'b'}]}", null, "{'l': [{'name': 'c'}]}"))
                .as("an observed item without the key: a plain list")
                .isEqualTo(expected("{'l': [{'name': 'c'}]}"));
    }

    @Test
    void theSidecarAnotherToolAddedSurvives() {
        String observed = """
                {'spec': {'containers': [
                  {'name': 'nginx', 'image': 'nginx', 'ports': [{'containerPort': 80, 'name': 'web'}]},
                  {'name': 'sidecar', 'image': 'log-uploader'}]}}""";
        String applied = "{'spec': {'containers': [{'name': 'nginx', 'image': 'nginx', 'ports': [{'containerPort': 80, 'name': 'web'}]}]}}";
        String desired = "{'spec': {'containers': [{'name': 'nginx', 'image': 'nginx:1.25', 'ports': [{'containerPort': 8080, 'name': 'web'}]}]}}";
        assertThat(merge(observed, applied, desired)).isEqualTo(expected("""
                {'spec': {'containers': [
                  {'name': 'nginx', 'image': 'nginx:1.25', 'ports': [{'containerPort': 8080, 'name': 'web'}]},
                  {'name': 'sidecar', 'image': 'log-uploader'}]}}"""));
    }

    @Test
    void fieldsDroppedFromAnItemGoOnlyIfMusterHadSetThem() {
        assertThat(merge("{'l': [{'name': 'a', 'mine': 1, 'theirs': 2}]}", "{'l': [{'name': 'a', 'mine': 1}]}",
                "{'l': [{'name': 'a'}]}"))
                .isEqualTo(expected("{'l': [{'name': 'a', 'theirs': 2}]}"));
    }

    @Test
    void removedItemsGoOnlyIfMusterHadAddedThem() {
        assertThat(merge("{'l': [{'name': 'a'}, {'name': 'b'}, {'name': 'c'}]}", "{'l': [{'name': 'a'}, {'name': 'b'}]}", "{'l': []}"))
                .isEqualTo(expected("{'l': [{'name': 'c'}]}"));
    }

    @Test
    void otherListsAreReplaced() {
        assertThat(merge("{'l': [1, 2, 3]}", "{'l': [1]}", "{'l': [4]}")).isEqualTo(expected("{'l': [4]}"));
        assertThat(merge("{'l': [{'x': 1}, {'x': 2}]}", null, "{'l': [{'x': 3}]}")).isEqualTo(expected("{'l': [{'x': 3}]}"));
        assertThat(merge("{'l': [{'name': 'a'}, 'b']}", null, "{'l': [{'name': 'c'}]}")).isEqualTo(expected("{'l': [{'name': 'c'}]}"));
    }

    @Test
    void aListWithARepeatedKeyValueIsAPlainList() {
        assertThat(merge("{'l': [{'name': 'a', 'n': 1}, {'name': 'a', 'n': 2}]}", null, "{'l': [{'name': 'a', 'n': 3}]}"))
                .isEqualTo(expected("{'l': [{'name': 'a', 'n': 3}]}"));
    }

    @Test
    void keyValuesMatchByValueNotSpelling() {
        assertThat(merge("{'l': [{'port': 80.0, 'p': 'tcp'}]}", null, "{'l': [{'port': 80, 'q': 1}]}"))
                .isEqualTo(expected("{'l': [{'port': 80.0, 'p': 'tcp', 'q': 1}]}"));
        assertThat(merge("{'l': [{'port': '80', 'p': 'tcp'}]}", null, "{'l': [{'port': 80}]}"))
                .as("the string '80' is not the number 80")
                .isEqualTo(expected("{'l': [{'port': '80', 'p': 'tcp'}, {'port': 80}]}"));
    }

    @Test
    void anEqualNumberKeepsTheObservedSpelling() {
        assertThat(merge("{'a': 1.0, 'b': 2.50, 'c': [1.0]}", null, "{'a': 1, 'b': 2.5, 'c': [1]}"))
                .isEqualTo(expected("{'a': 1.0, 'b': 2.50, 'c': [1.0]}"));
        assertThat(merge("{'a': 1}", null, "{'a': '1'}")).isEqualTo(expected("{'a': '1'}"));
    }

    @Test
    void theInputsAreLeftAlone() {
        Map<String, Object> observed = doc("{'a': {'b': 1}, 'l': [{'name': 'x'}]}");
        Map<String, Object> last = doc("{'a': {'b': 1}}");
        Map<String, Object> desired = doc("{'a': {'c': 2}, 'l': [{'name': 'y'}]}");
        String before = Json.pretty(java.util.List.of(observed, last, desired));
        ThreeWayMerge.merge(observed, last, desired);
        assertThat(Json.pretty(java.util.List.of(observed, last, desired))).isEqualTo(before);
    }
}
