package io.muster.cli;

import static io.muster.engine.testing.TestAccounts.getent;
import static io.muster.engine.testing.TestAccounts.output;
import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.InitScriptService;
import io.muster.engine.testing.Manifests;
import io.muster.engine.testing.TestAccounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code service}, {@code user}, {@code group} and {@code cron} end to end through {@code muster apply} and
 * {@code muster run}, on the real system (tests run as root); every account, crontab and service made is removed after.
 */
class HostKindsCliTest {
    private static final String HASH = "$6$clitest$ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";

    @TempDir
    Path dir;

    @RegisterExtension // first: its clean-up runs after the muster processes stopped, which would make the accounts again
    final TestAccounts accounts = new TestAccounts();

    @RegisterExtension
    final MusterProcesses processes = new MusterProcesses();

    private Path manifest(String yaml) {
        return new Manifests(dir).write("site.yaml", yaml.replace("@U", accounts.name("u")).replace("@G", accounts.name("g")));
    }

    @Test
    void applyMakesAGroupAUserInItAndTheirCrontabAndNeverPrintsThePasswordHash() throws Exception {
        Path site = manifest("""
                resources:
                  - cron: [{report: {user: @U, hour: 6, minute: 0, command: /usr/local/bin/report}}]
                  - user: [{@U: {groups: [@G], shell: /bin/bash, password: "HASH"}}]
                  - group: [@G]
                """.replace("HASH", HASH));

        Cli plan = Cli.run("apply", site, "--noop", "--diff", "--tmp-prefix");
        assertThat(plan.out()).contains("user#" + accounts.name("u") + " changed ensure").contains("+0 6 * * * /usr/local/bin/report");
        Cli first = Cli.run("apply", site, "--diff", "--tmp-prefix", "--detailed-exitcodes");

        assertThat(first.exit()).as(first.out() + first.err()).isEqualTo(2);
        assertThat(getent("passwd", accounts.name("u"))).endsWith(":/bin/bash");
        assertThat(output("id", "-Gn", accounts.name("u"))).contains(accounts.name("g"));
        assertThat(output("crontab", "-u", accounts.name("u"), "-l")).isEqualTo("# Muster Name: report\n0 6 * * * /usr/local/bin/report\n");
        assertThat(Cli.run("apply", site, "--tmp-prefix", "--detailed-exitcodes").exit()).isZero();

        Files.writeString(site, Files.readString(site).replace(HASH, HASH.replace("ABC", "CBA")));
        Cli changed = Cli.run("apply", site, "--diff", "--tmp-prefix", "--output", "json");
        Cli text = Cli.run("apply", site, "--diff", "--tmp-prefix");
        assertThat(changed.out()).containsPattern("\"attribute\": *\"password\"");
        assertThat(plan.out() + plan.err() + first.out() + first.err() + changed.out() + changed.err() + text.out() + text.err())
                .doesNotContain("clitest");
    }

    @Test
    void runRepairsAUserAndACrontabChangedByHand() throws Exception {
        Path site = manifest("""
                resources:
                  - user: [{@U: {shell: /bin/bash}}]
                  - cron: [{report: {user: @U, special: daily, command: /usr/local/bin/report}}]
                """);
        processes.start(dir, "run", site);
        Awaitility.await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> output("crontab", "-u", accounts.name("u"), "-l").contains("@daily /usr/local/bin/report"));

        output("usermod", "-s", "/bin/sh", accounts.name("u"));
        output("crontab", "-u", accounts.name("u"), "-r");

        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> getent("passwd", accounts.name("u")).endsWith(":/bin/bash")
                && output("crontab", "-u", accounts.name("u"), "-l").contains("@daily /usr/local/bin/report"));
    }

    @Test
    void applyStartsAServiceAndRunRestartsItsDaemonWhenItDies() throws Exception {
        try (InitScriptService service = InitScriptService.install(dir)) {
            Path site = manifest("resources: [{service: {name: NAME, ensure: running, enable: true}}]".replace("NAME", service.name()));

            Cli apply = Cli.run("apply", site, "--tmp-prefix");
            assertThat(apply.out()).as(apply.err()).contains("service#" + service.name() + " changed ensure,enable");
            long first = service.pid();
            assertThat(first).isPositive();
            assertThat(service.startsAtBoot()).isTrue();

            MusterProcess run = processes.start(dir, "run", site);
            try {
                Awaitility.await().pollDelay(Duration.ofSeconds(1)).until(() -> service.pid() == first); // converged: nothing to do
                service.crash();

                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> service.pid() > 0 && service.pid() != first);
            } finally { // before the service goes: muster would start it again while it is being removed
                run.terminate();
                run.awaitExit(Duration.ofSeconds(30));
            }
        }
    }
}
