package io.muster.engine.resource.cron;

import static io.muster.engine.testing.Manifests.resource;
import static io.muster.engine.testing.TestAccounts.output;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Change;
import io.muster.engine.testing.Manifests;
import io.muster.engine.testing.TestAccounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code cron} entries in the crontab of a user this test makes (and removes, crontab included). */
class CronResourceTest {
    @TempDir
    Path dir;

    @RegisterExtension
    final TestAccounts accounts = new TestAccounts();
    private String user;

    @BeforeEach
    void makeUser() throws Exception {
        user = accounts.name("cron");
        output("useradd", "-M", user);
    }

    private Report apply(String yaml) throws Exception {
        return new Manifests(dir).apply(yaml.replace("@U", user));
    }

    /** The lines a detailed report shows for cron#backup, its diff left out. */
    private static List<String> described(Report report) {
        return resource(report, "cron#backup").changes().stream().map(Change::describe).filter(Objects::nonNull).toList();
    }

    private String crontab() throws Exception {
        return output("crontab", "-u", user, "-l");
    }

    @Test
    void addsChangesAndRemovesItsEntryKeepingTheOthers() throws Exception {
        Path mine = dir.resolve("mine");
        Files.writeString(mine, "# the user's own\n5 4 * * * /usr/bin/true\n");
        output("crontab", "-u", user, mine.toString());

        Report added = apply("""
                resources:
                  - cron:
                      - backup: {user: @U, minute: 30, hour: [2, 14], command: /usr/local/bin/backup --quiet, environment: {MAILTO: ops@example.com}}
                """);
        assertThat(described(added)).containsExactly("ensure absent -> present");
        assertThat(crontab()).isEqualTo("""
                # the user's own
                5 4 * * * /usr/bin/true
                # Muster Name: backup
                MAILTO=ops@example.com
                30 2,14 * * * /usr/local/bin/backup --quiet
                """);
        assertThat(apply("""
                resources:
                  - cron:
                      - backup: {user: @U, minute: 30, hour: [2, 14], command: /usr/local/bin/backup --quiet, environment: {MAILTO: ops@example.com}}
                """).resources()).allMatch(r -> r.status() == Status.STABLE);

        Report changed = apply("resources: [{cron: [{backup: {user: @U, special: reboot, command: /usr/local/bin/backup}}]}]");
        assertThat(described(changed)).containsExactly(
                "entry MAILTO=ops@example.com | 30 2,14 * * * /usr/local/bin/backup --quiet -> @reboot /usr/local/bin/backup");
        assertThat(crontab()).isEqualTo("# the user's own\n5 4 * * * /usr/bin/true\n# Muster Name: backup\n@reboot /usr/local/bin/backup\n");

        Report removed = apply("resources: [{cron: [{backup: {user: @U, ensure: absent}}]}]");
        assertThat(described(removed)).containsExactly("ensure present -> absent");
        assertThat(crontab()).isEqualTo("# the user's own\n5 4 * * * /usr/bin/true\n");
    }

    @Test
    void planShowsTheCrontabsDiffAndChangesNothing() throws Exception {
        Report planned = new Manifests(dir).plan("resources: [{cron: [{tick: {user: @U, command: date}}]}]".replace("@U", user));

        assertThat(resource(planned, "cron#tick").changes()).extracting(Change::diff).filteredOn(d -> d != null).singleElement()
                .asString().contains("+# Muster Name: tick\n+* * * * * date\n");
        assertThat(crontab()).startsWith("no crontab for " + user);
    }

    @Test
    void aSpecialScheduleAndFieldsTogetherAreAnError() {
        assertThatThrownBy(() -> apply("resources: [{cron: [{x: {user: @U, special: daily, hour: 3, command: date}}]}]"))
                .hasMessageContaining("special: a special schedule (@daily) cannot be combined with hour");
    }

    @Test
    void anUnknownUserIsNamedAndForeseenByPlan() throws Exception {
        String yaml = "resources: [{cron: [{x: {user: no-such-user-here, command: date}}]}]";

        assertThat(resource(apply(yaml), "cron#x").error()).isEqualTo("user 'no-such-user-here' does not exist on this host");
        assertThat(resource(new Manifests(dir).plan(yaml), "cron#x").status()).isEqualTo(Status.WOULD_FAIL);
    }
}
