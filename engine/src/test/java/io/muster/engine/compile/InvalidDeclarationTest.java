package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A declaration wrong in many parts: every part's problems are reported together, each once, even when a
 * lookup from an earlier declaration found the wrong property first.
 */
class InvalidDeclarationTest {
    @TempDir
    Path dir;

    @Test
    void everyWrongPartIsReportedOnceAndALookupOfAWrongPropertySaysSo() {
        ManifestException e = catchThrowableOfType(ManifestException.class, () -> new Manifests(dir).compile("""
                resources:
                  - msg:
                      - m: {message: "${ lookup('file#ROOT/a.mode') }"}
                  - file:
                      - ROOT/a:
                          mode: 644
                          meta: {retry: lots, delay: -1}
                          control: {if: [1], when: x}
                          tags: {a: b}
                          health_checks: [{command: ""}, {tries: 0, command: x}]
                """));
        String a = "file#" + dir.resolve("a");
        List<String> problems = e.problems().stream().map(p -> p.mark().line() + ": " + p.message()).toList();
        assertThat(problems).containsExactly(
                "3: msg#m: message: lookup('" + a + ".mode'): that property has errors",
                "6: " + a + ": mode: write the mode as a quoted string like \"0644\"; the number 644 is ambiguous"
                        + " (YAML 1.2 reads 0644 as decimal 644)",
                "7: " + a + ": meta.retry: expected a whole number of retries, -1 for forever, got the string 'lots'",
                "7: " + a + ": meta.delay: expected milliseconds between retries (0 or more), got the number -1",
                "8: " + a + ": control.if: expected an expression (a string) or true/false, got a list",
                "8: " + a + ": control: unknown key 'when'; expected if, unless",
                "9: " + a + ": tags: expected a string or a list of strings, got a map",
                "10: " + a + ": health_checks: command: expected a command, got an empty string",
                "10: " + a + ": health_checks: tries: expected at least 1, got 0");
    }
}
