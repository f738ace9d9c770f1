package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.resource.Kinds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The corpus of broken manifests: each {@code broken/NAME.yaml} must make {@code validate} and
 * {@code apply} print exactly {@code broken/NAME.err} (FILE standing for the manifest's path, DIR for the
 * corpus directory, where child manifests live in subdirectories, KINDS for the installed kinds' names in
 * order, which grow with new kinds) and exit 1.
 */
class BrokenManifestsTest {
    private static final Path CORPUS = Path.of("src/test/resources/broken").toAbsolutePath();

    static Stream<Path> corpus() throws IOException {
        try (var files = Files.list(CORPUS)) {
            return files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void printsTheExpectedErrorsAndAppliesNothing(Path manifest) throws IOException {
        String expected = Files.readString(Path.of(manifest.toString().replaceAll("\\.yaml$", ".err")))
                .replace("FILE", manifest.toString()).replace("DIR", CORPUS.toString())
                .replace("KINDS", String.join(", ", Kinds.installed().names().stream().sorted().toList()));
        Cli validate = Cli.run("validate", manifest);
        assertThat(validate.err()).isEqualTo(expected);
        assertThat(validate.out()).isEmpty();
        assertThat(validate.exit()).isEqualTo(1);

        Cli apply = Cli.run("apply", manifest, "--tmp-prefix", "--detailed-exitcodes");
        assertThat(apply.err()).isEqualTo(expected);
        assertThat(apply.out()).isEmpty();
        assertThat(apply.exit()).isEqualTo(1);
    }
}
