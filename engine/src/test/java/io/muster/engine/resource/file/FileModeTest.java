package io.muster.engine.resource.file;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileModeTest {

    @ParameterizedTest
    @ValueSource(strings = {"644", "0644", "2755", "04755", "00644", "777", "0000"})
    void threeOrFourOctalDigitsAfterAnOptionalZeroAreAMode(String mode) {
        assertThat(FileMode.problem(mode)).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "64", "0o644", "0648", "12755", "644 ", "u+x", "٦٤٤"})
    void anythingElseIsNamedInTheProblem(String mode) {
        assertThat(FileMode.problem(mode)).isEqualTo("expected an octal mode like \"0644\" or \"2755\", got '" + mode + "'");
    }

    @ParameterizedTest
    @ValueSource(ints = {644, 420})
    void aNumberIsAmbiguous(int mode) {
        assertThat(FileMode.problem(mode)).contains("write the mode as a quoted string");
    }
}
