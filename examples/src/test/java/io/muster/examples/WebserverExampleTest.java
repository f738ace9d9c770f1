package io.muster.examples;

import static io.muster.engine.testing.TestAccounts.getent;
import static org.assertj.core.api.Assertions.assertThat;

import io.muster.cli.Cli;
import io.muster.engine.testing.LocalAptRepository;
import io.muster.engine.testing.TestAccounts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/webserver.yaml on the real system (tests run as root), with a package of the local apt repository that
 * brings a daemon and its init script: no download. Closing the repository purges the package, whose removal stops
 * the daemon; the user goes with {@link TestAccounts}.
 */
class WebserverExampleTest {
    private static final Path EXAMPLE = Path.of("webserver.yaml").toAbsolutePath();

    @TempDir
    Path dir;

    @RegisterExtension
    final TestAccounts accounts = new TestAccounts();

    @Test
    void installsConfiguresAndStartsTheServerAndRestartsItOnlyWhenItsConfigurationChanges() throws Exception {
        try (LocalAptRepository repository = LocalAptRepository.publish(dir.resolve("repo"), "web=1.0@service")) {
            String name = repository.name("web");
            String user = accounts.name("www");
            Path config = Path.of("/etc", name, name + ".conf");

            Cli first = apply(name, user, "8080");
            assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(2);
            assertThat(TestAccounts.output("dpkg-query", "-W", "-f=${db:Status-Abbrev}", name)).startsWith("ii");
            assertThat(getent("passwd", user)).endsWith(":/usr/sbin/nologin");
            assertThat(config).hasContent("# managed by muster: edits here are replaced on the next run\nuser " + user
                    + "\nlisten 8080\nworkers 2");
            long started = pid(name);
            assertThat(ProcessHandle.of(started)).as("the daemon runs").hasValueSatisfying(p -> assertThat(p.isAlive()).isTrue());

            Cli again = apply(name, user, "8080");
            assertThat(again.exit()).as(again.out() + again.err()).isZero();
            assertThat(pid(name)).as("nothing changed, no restart").isEqualTo(started);

            Cli changed = apply(name, user, "8081");
            assertThat(changed.exit()).as(changed.out() + changed.err()).isEqualTo(2);
            assertThat(Files.readString(config)).contains("listen 8081");
            assertThat(pid(name)).as("restarted for its new configuration").isNotEqualTo(started);
        }
    }

    private static Cli apply(String name, String user, String port) {
        return Cli.run("apply", EXAMPLE, "--data", "package=" + name, "--data", "user=" + user, "--data", "port=" + port,
                "--tmp-prefix", "--detailed-exitcodes");
    }

    private static long pid(String name) throws IOException {
        return Long.parseLong(Files.readString(Path.of("/run", name + ".pid")).strip());
    }
}
