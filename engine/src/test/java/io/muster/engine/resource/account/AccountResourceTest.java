package io.muster.engine.resource.account;

import static io.muster.engine.testing.Manifests.resource;
import static io.muster.engine.testing.TestAccounts.getent;
import static io.muster.engine.testing.TestAccounts.output;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.report.JsonReport;
import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.resource.Change;
import io.muster.engine.testing.Manifests;
import io.muster.engine.testing.TestAccounts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code user} and {@code group} on the real system (tests run as root); every account made is removed after. */
class AccountResourceTest {
    private static final String HASH = "$6$mustertest$0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ./0123456789abcdefghijkl";
    private static final String OTHER_HASH = "$6$mustertest$zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA./9876543210zyxwvutsrqponmlkjihgf";

    @TempDir
    Path dir;

    @RegisterExtension
    final TestAccounts accounts = new TestAccounts();

    private Report apply(String yaml) throws Exception {
        return new Manifests(dir).apply(names(yaml));
    }

    private Report plan(String yaml) throws Exception {
        return new Manifests(dir).plan(names(yaml));
    }

    /** {@code @U}, {@code @G1} and {@code @G2} in a manifest are this test's names. */
    private String names(String yaml) {
        return yaml.replace("@U", accounts.name("u")).replace("@G1", accounts.name("g1")).replace("@G2", accounts.name("g2"));
    }

    @Test
    void createsAUserAfterItsGroupsWithEveryProperty() throws Exception {
        String yaml = """
                resources:
                  - user:
                      - @U: {gid: @G1, groups: [@G2], home: ROOT/home/@U, shell: /bin/bash, comment: "Test User",
                            managehome: true, password: "HASH"}
                  - group: [@G1, @G2]
                """.replace("HASH", HASH);

        Report planned = plan(yaml);
        assertThat(resource(planned, "user#" + accounts.name("u")).changes()).extracting(Change::describe).containsExactly("ensure absent -> present");
        assertThat(getent("passwd", accounts.name("u"))).as("plan changes nothing").isNull();

        Report report = apply(yaml);

        assertThat(report.resources()).allMatch(r -> r.status() == Status.CHANGED);
        String[] passwd = getent("passwd", accounts.name("u")).split(":");
        assertThat(passwd[3]).isEqualTo(getent("group", accounts.name("g1")).split(":")[2]);
        assertThat(passwd[4]).isEqualTo("Test User");
        assertThat(passwd[5]).isEqualTo(dir.resolve("home/" + accounts.name("u")).toString());
        assertThat(passwd[6]).isEqualTo("/bin/bash");
        assertThat(Files.isDirectory(dir.resolve("home/" + accounts.name("u")))).as("managehome makes the home").isTrue();
        assertThat(output("id", "-Gn", accounts.name("u")).strip()).isEqualTo(accounts.name("g1") + " " + accounts.name("g2"));
        assertThat(getent("shadow", accounts.name("u")).split(":")[1]).isEqualTo(HASH);
        assertThat(apply(yaml).resources()).allMatch(r -> r.status() == Status.STABLE);
    }

    @Test
    void changesOnlyWhatDiffersAndNeverShowsThePassword() throws Exception {
        apply("""
                resources:
                  - group: [@G1, @G2]
                  - user: [{@U: {groups: [@G1], shell: /bin/sh, password: "HASH"}}]
                """.replace("HASH", HASH));

        Report report = apply("""
                resources:
                  - group: [@G1, @G2]
                  - user: [{@U: {groups: [@G2], shell: /bin/bash, password: "HASH"}}]
                """.replace("HASH", OTHER_HASH));

        assertThat(resource(report, "user#" + accounts.name("u")).changes()).extracting(Change::describe).containsExactly(
                "groups " + accounts.name("g1") + " -> " + accounts.name("g2"),
                "shell /bin/sh -> /bin/bash",
                "password (sensitive) -> (sensitive)");
        assertThat(getent("shadow", accounts.name("u")).split(":")[1]).isEqualTo(OTHER_HASH);
        String json = JsonReport.render(report);
        assertThat(json).doesNotContain(HASH).doesNotContain(OTHER_HASH).doesNotContain("mustertest");
    }

    @Test
    void aGroupsGidAndMembersAreConvergedAndItsGidIsAValue() throws Exception {
        apply("""
                resources:
                  - user: [@U]
                  - group: [{@G1: {members: [@U], require: user#@U}}]
                """);
        assertThat(getent("group", accounts.name("g1"))).endsWith(":" + accounts.name("u"));
        long gid = Long.parseLong(getent("group", accounts.name("g1")).split(":")[2]) + 1000;
        while (getent("group", Long.toString(gid)) != null) gid++;

        Report report = apply("""
                resources:
                  - group: [{@G1: {gid: GID, members: []}}]
                  - file: [{ROOT/gid: {content: "${ lookup('group#@G1.gid') }"}}]
                """.replace("GID", Long.toString(gid)));

        assertThat(resource(report, "group#" + accounts.name("g1")).changedAttributes()).containsExactly("gid", "members");
        assertThat(getent("group", accounts.name("g1"))).isEqualTo(accounts.name("g1") + ":x:" + gid + ":");
        assertThat(Files.readString(dir.resolve("gid"))).isEqualTo(Long.toString(gid));
    }

    @Test
    void ensureAbsentRemovesTheUserWithItsHomeAndTheGroup() throws Exception {
        apply("resources: [{group: [@G1]}, {user: [{@U: {gid: @G1, home: ROOT/home/@U, managehome: true}}]}]");
        assertThat(dir.resolve("home/" + accounts.name("u"))).isDirectory();

        Report report = apply("resources: [{user: [{@U: {ensure: absent, managehome: true}}]}, {group: [{@G1: {ensure: absent, require: user#@U}}]}]");

        assertThat(resource(report, "user#" + accounts.name("u")).changes()).extracting(Change::describe).containsExactly("ensure present -> absent");
        assertThat(getent("passwd", accounts.name("u"))).isNull();
        assertThat(getent("group", accounts.name("g1"))).isNull();
        assertThat(dir.resolve("home/" + accounts.name("u"))).doesNotExist();
        assertThat(apply("resources: [{user: [{@U: {ensure: absent}}]}]").resources()).allMatch(r -> r.status() == Status.STABLE);
    }

    @Test
    void aToolsRefusalIsQuotedWithoutThePassword() throws Exception {
        Report report = apply("resources: [{user: [{@U: {gid: no-such-group-here, password: \"HASH\"}}]}]".replace("HASH", HASH));

        String error = resource(report, "user#" + accounts.name("u")).error();
        assertThat(error).contains("useradd").contains("exited with 6").contains("no-such-group-here").contains("(sensitive)").doesNotContain(HASH);
    }

    @Test
    void aPasswordThatIsNotAHashIsRefusedWithoutQuotingIt() {
        assertThatThrownBy(() -> apply("resources: [{user: [{@U: {password: hunter2}}]}]"))
                .hasMessageContaining("password: expected a crypt hash")
                .message().doesNotContain("hunter2");
    }
}
