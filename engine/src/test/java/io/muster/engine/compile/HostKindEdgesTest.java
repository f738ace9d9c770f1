package io.muster.engine.compile;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.graph.Edge;
import io.muster.engine.graph.EdgeReason;
import io.muster.engine.graph.Graph;
import io.muster.engine.testing.Manifests;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The automatic edges of the host kinds, compiled only (nothing touches /etc): a service after its configuration
 * tree, init script and unit files; a user after its groups; a cron entry after its user.
 */
class HostKindEdgesTest {
    @TempDir
    Path dir;

    private Graph compile(String yaml) throws Exception {
        return new Manifests(dir).compile(yaml);
    }

    private static Edge auto(String from, String to) {
        return new Edge(from, to, EdgeReason.AUTOEDGE);
    }

    @Test
    void aServiceComesAfterEveryManagedFileOfItsTreeAndItsScripts() throws Exception {
        Graph graph = compile("""
                resources:
                  - service: [{app: {ensure: running}}]
                  - file:
                      - /etc/app: {ensure: directory}
                      - /etc/app/conf.d/site.conf: {content: "x\\n"}
                      - /etc/app.conf: {content: "not in the tree\\n"}
                      - /etc/application/other.conf: {content: "nor this\\n"}
                      - /etc/init.d/app: {content: "#!/bin/sh\\n"}
                      - /etc/default/app: {content: "OPTS=\\n"}
                      - /etc/systemd/system/app.service.d/override.conf: {content: "[Service]\\n"}
                """);

        assertThat(graph.incoming("service#app")).containsExactlyInAnyOrder(
                auto("file#/etc/app", "service#app"),
                auto("file#/etc/app/conf.d/site.conf", "service#app"),
                auto("file#/etc/init.d/app", "service#app"),
                auto("file#/etc/default/app", "service#app"),
                auto("file#/etc/systemd/system/app.service.d/override.conf", "service#app"));
    }

    @Test
    void aFileThatComesAfterTheServiceByHandGetsNoEdgeBack() throws Exception {
        Graph graph = compile("""
                resources:
                  - service: [{app: {ensure: running}}]
                  - file: [{/etc/app/state: {content: "x\\n", require: service#app}}]
                """);

        assertThat(graph.incoming("service#app")).isEmpty();
    }

    @Test
    void aUserComesAfterItsGroupsAndACronEntryAfterItsUser() throws Exception {
        Graph graph = compile("""
                resources:
                  - cron: [{nightly: {user: app, command: /usr/local/bin/nightly}}]
                  - user: [{app: {gid: app, groups: [adm, www]}}]
                  - group: [app, www, unrelated]
                """);

        assertThat(graph.incoming("user#app")).containsExactlyInAnyOrder(auto("group#app", "user#app"), auto("group#www", "user#app"));
        assertThat(graph.incoming("cron#nightly")).containsExactly(auto("user#app", "cron#nightly"));
    }
}
