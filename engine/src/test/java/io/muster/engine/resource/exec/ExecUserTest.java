package io.muster.engine.resource.exec;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.process.ProcessRunner;
import io.muster.engine.report.Report;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code user:} and {@code group:}: the command runs as that user, with that user's groups and environment (tests run as root). */
class ExecUserTest {
    @TempDir
    Path dir;

    private Report apply(String yaml) throws Exception {
        return new Manifests(dir).apply(yaml);
    }

    @Test
    void aUserGetsTheirPrimaryGroupAndALoginLikeEnvironment() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - who: {command: "sh -c 'id -un; id -gn; id -Gn; env | sort'", user: nobody, environment: {EXTRA: given}}
                  - file:
                      - ROOT/who: {content: "${ lookup('exec#who.stdout') }"}
                """);

        assertThat(resource(report, "exec#who").status()).isEqualTo(Status.CHANGED);
        assertThat(Files.readAllLines(dir.resolve("who"))).containsExactly(
                "nobody", "nogroup", "nogroup",
                "EXTRA=given",
                "HOME=/nonexistent",
                "LOGNAME=nobody",
                "PATH=" + ProcessRunner.LOGIN_PATH,
                "PWD=" + dir,
                "SHELL=/usr/sbin/nologin",
                "USER=nobody");
    }

    @Test
    void groupOverridesThePrimaryGroupAndAloneKeepsRootWithoutItsGroups() throws Exception {
        apply("""
                resources:
                  - exec:
                      - both: {command: "sh -c 'id -un; id -gn'", user: nobody, group: root}
                      - group: {command: "sh -c 'id -un; id -Gn'", group: nogroup}
                  - file:
                      - ROOT/both: {content: "${ lookup('exec#both.stdout') }"}
                      - ROOT/group: {content: "${ lookup('exec#group.stdout') }"}
                """);

        assertThat(Files.readAllLines(dir.resolve("both"))).containsExactly("nobody", "root");
        assertThat(Files.readAllLines(dir.resolve("group"))).containsExactly("root", "nogroup");
    }

    @Test
    void guardsRunAsTheUserToo() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - guarded: {command: "true", user: nobody, onlyif: "sh -c 'test $(id -un) = nobody && test $HOME = /nonexistent'"}
                """);

        assertThat(resource(report, "exec#guarded").status()).isEqualTo(Status.CHANGED);
    }

    @Test
    void anUnknownUserOrGroupIsNamed() throws Exception {
        Report report = apply("""
                resources:
                  - exec:
                      - user: {command: "true", user: no-such-user-here}
                      - group: {command: "true", user: nobody, group: no-such-group-here}
                """);

        assertThat(resource(report, "exec#user").error()).isEqualTo("user 'no-such-user-here' does not exist on this host");
        assertThat(resource(report, "exec#group").error()).isEqualTo("group 'no-such-group-here' does not exist on this host");
    }
}
