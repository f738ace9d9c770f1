package io.muster.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RuntimeLocatorTest {
    @TempDir
    Path dir;

    private Path runtime(String name) throws Exception {
        Path runtime = Files.createDirectories(dir.resolve(name));
        Files.createDirectories(runtime.resolve("bin"));
        Files.writeString(runtime.resolve("bin/java"), "#!/bin/sh\n");
        runtime.resolve("bin/java").toFile().setExecutable(true);
        Files.writeString(runtime.resolve(RuntimeLocator.LISTING), "");
        return runtime;
    }

    @Test
    void theJarIsTheOneFileOnTheClassPath() throws Exception {
        assertThat(RuntimeLocator.jar("/usr/lib/muster/muster.jar")).isEqualTo(Path.of("/usr/lib/muster/muster.jar"));
        assertThatThrownBy(() -> RuntimeLocator.jar("target/classes:lib/a.jar")).isInstanceOf(RuntimeLocator.NotFound.class)
                .hasMessageContaining("./mvnw -pl cli -am package");
    }

    @Test
    void runtimeFlagThenEnvironmentThenBesideTheJarThenTheRunningJava() throws Exception {
        Path jar = dir.resolve("lib/muster.jar");
        Path flag = runtime("flag");
        Path env = runtime("env");
        Path home = runtime("home");

        assertThat(RuntimeLocator.runtime(flag, env.toString(), jar, home)).isEqualTo(flag);
        assertThat(RuntimeLocator.runtime(null, env.toString(), jar, home)).isEqualTo(env);
        assertThat(RuntimeLocator.runtime(null, "", jar, home)).isEqualTo(home);
        Path beside = runtime("lib/runtime");
        assertThat(RuntimeLocator.runtime(null, null, jar, home)).isEqualTo(beside);
    }

    @Test
    void aJavaThatIsNoMusterRuntimeIsNotTakenAndTheMessageSaysHowToBuildOne() throws Exception {
        Path plainJdk = Files.createDirectories(dir.resolve("jdk/bin"));

        assertThatThrownBy(() -> RuntimeLocator.runtime(null, null, dir.resolve("muster.jar"), plainJdk.getParent()))
                .hasMessageStartingWith("no Java runtime to upload to the hosts")
                .hasMessageContaining("./mvnw -pl deploy -am package").hasMessageContaining("--runtime");
        assertThatThrownBy(() -> RuntimeLocator.runtime(plainJdk.getParent(), null, dir.resolve("muster.jar"), null))
                .hasMessageStartingWith("--runtime " + plainJdk.getParent() + ": not a muster runtime");
    }
}
