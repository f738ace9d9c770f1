package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VersionTest {
    @Test
    void versionNamesTheReleaseTheCommitItWasBuiltFromAndTheJavaRunningIt() {
        Cli version = Cli.run("--version");

        assertThat(version.exit()).isZero();
        // a checkout gives the abbreviated commit, "-dirty" with uncommitted changes; a source tarball "unknown"
        assertThat(version.out()).matches("""
                muster \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(commit ([0-9a-f]{7,}(-dirty)?|unknown)\\)
                Java \\d+\\S* at /\\S*
                """);
        assertThat(version.out()).contains("at " + System.getProperty("java.home") + "\n");
    }
}
