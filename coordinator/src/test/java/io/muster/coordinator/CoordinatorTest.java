package io.muster.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.options.GetOption;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.proto.fleet.GraphPointer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LocalEtcd.class)
class CoordinatorTest {
    private static final String BY_ROLE = """
            resources:
              - file:
                  - /tmp/muster-coordinator-test/${ facts.role }.conf: {content: "managed\\n"}
            """;

    @TempDir
    Path dir;

    private TestFleet fleet;
    private TestFleet.Running coordinator;

    @BeforeEach
    void fleet(LocalEtcd local) throws Exception {
        fleet = new TestFleet(local, "coordinator", dir);
    }

    @AfterEach
    void close() throws Exception {
        if (coordinator != null) coordinator.close();
        fleet.close();
    }

    private GraphPointer awaitPointer(String host, long deploy) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> fleet.pointer(host), p -> p != null && p.getDeploy() == deploy);
    }

    @Test
    void compilesEachHostWithItsFactsAndStoresOneGraphPerHost() throws Exception {
        fleet.register("web1", Map.of("role", "web"));
        fleet.register("web2", Map.of("role", "web"));
        fleet.register("db1", Map.of("role", "db"));
        long deploy = fleet.deploy(BY_ROLE);
        coordinator = fleet.coordinator("c1");

        GraphPointer web1 = awaitPointer("web1", deploy);
        GraphPointer web2 = awaitPointer("web2", deploy);
        GraphPointer db1 = awaitPointer("db1", deploy);
        assertThat(web1.getError()).isEmpty();
        assertThat(web1.getGraph()).isEqualTo(web2.getGraph()).isNotEqualTo(db1.getGraph());
        assertThat(graphsStored()).as("a graph for each host: only its host may read it").isEqualTo(3);
        byte[] stored = new ContentStore(fleet.etcd).get(Keys.graph("db1", db1.getGraph())).orElseThrow();
        assertThat(new String(stored)).contains("/tmp/muster-coordinator-test/db.conf");

        fleet.publishFacts("db1", Map.of("role", "web"));
        await().atMost(Duration.ofSeconds(20)).until(() -> fleet.pointer("db1").getGraph(), web1.getGraph()::equals);
        assertThat(new ContentStore(fleet.etcd).get(Keys.graph("db1", web1.getGraph()))).isPresent();
        assertThat(new ContentStore(fleet.etcd).contains(Keys.graph("db1", db1.getGraph()))).as("the graph db1 no longer runs").isFalse();
        assertThat(graphsStored()).isEqualTo(3);

        fleet.register("web3", Map.of("role", "web"));
        assertThat(awaitPointer("web3", deploy).getGraph()).isEqualTo(web1.getGraph());
    }

    private long graphsStored() throws Exception {
        return fleet.etcd.await(fleet.etcd.kv().get(Keys.GRAPHS, GetOption.builder().isPrefix(true).withCountOnly(true).build())).getCount();
    }

    @Test
    void aNodesSectionGivesEachHostTheManifestsItsNameMatches() throws Exception {
        fleet.register("web1", Map.of());
        fleet.register("db-1", Map.of());
        fleet.register("mail", Map.of());
        long deploy = fleet.deploy(Map.of(
                "site.yaml", "nodes:\n  web*: [web.yaml]\n  /db-[0-9]+/: [db.yaml]\n  default: base.yaml\n",
                "web.yaml", "resources:\n  - file: {name: /tmp/muster-nodes-test/web.conf, content: x}\n",
                "db.yaml", "resources:\n  - file: {name: /tmp/muster-nodes-test/db.conf, content: x}\n",
                "base.yaml", "resources:\n  - file: {name: /tmp/muster-nodes-test/base.conf, content: x}\n"));
        coordinator = fleet.coordinator("c1");
        ContentStore store = new ContentStore(fleet.etcd);
        for (String[] expected : new String[][] {{"web1", "web.conf"}, {"db-1", "db.conf"}, {"mail", "base.conf"}}) {
            GraphPointer pointer = awaitPointer(expected[0], deploy);
            assertThat(pointer.getError()).isEmpty();
            String graph = new String(store.get(Keys.graph(expected[0], pointer.getGraph())).orElseThrow());
            for (String conf : List.of("web.conf", "db.conf", "base.conf")) {
                assertThat(graph.contains("/tmp/muster-nodes-test/" + conf)).as(expected[0] + " has " + conf).isEqualTo(conf.equals(expected[1]));
            }
        }
    }

    @Test
    void aPointerThatIsNotOneIsWrittenAnew() throws Exception {
        fleet.register("h1", Map.of("role", "web"));
        fleet.etcd.await(fleet.etcd.kv().put(Keys.graphPointer("h1"), io.etcd.jetcd.ByteSequence.from(new byte[] {(byte) 0xff, 0x01})));
        long deploy = fleet.deploy(BY_ROLE);
        coordinator = fleet.coordinator("c1");
        GraphPointer written = await().atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> fleet.pointer("h1"), p -> p.getDeploy() == deploy);
        assertThat(written.getGraph()).isNotEmpty();
    }

    @Test
    void aDeployThatChangesNothingForAHostMovesItsPointerOnlyAndAFailedCompileKeepsTheGraph() throws Exception {
        fleet.register("web1", Map.of("role", "web"));
        coordinator = fleet.coordinator("c1");
        GraphPointer first = awaitPointer("web1", fleet.deploy(BY_ROLE));

        long same = fleet.deploy(BY_ROLE + "# a comment changes the bundle, not the graph\n");
        assertThat(awaitPointer("web1", same).getGraph()).isEqualTo(first.getGraph());

        long broken = fleet.deploy("""
                resources:
                  - file:
                      - /tmp/x: {content: "${ facts.missing }"}
                """);
        GraphPointer failed = awaitPointer("web1", broken);
        assertThat(failed.getGraph()).as("keeps its graph").isEqualTo(first.getGraph());
        assertThat(failed.getError()).startsWith("site.yaml:3:").contains("missing");
    }

    @Test
    void theLeaderCompactsHistoryOlderThanOneInterval() throws Exception {
        fleet.register("h1", Map.of("role", "web"));
        long before = fleet.etcd.await(fleet.etcd.kv().get(Keys.CURRENT_DEPLOY)).getHeader().getRevision();
        coordinator = fleet.coordinator("c1", Duration.ofSeconds(2), Duration.ofMillis(300));
        awaitPointer("h1", fleet.deploy(BY_ROLE));
        GetOption old = GetOption.builder().withRevision(before).build();
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThatThrownBy(() -> fleet.etcd.await(fleet.etcd.kv().get(Keys.HOSTS, old)))
                .hasMessageContaining("compacted"));
        long second = fleet.deploy(BY_ROLE.replace("managed", "changed"));
        assertThat(awaitPointer("h1", second).getError()).as("still leading after compactions").isEmpty();
    }

    @Test
    void aLeaderThatStopsHandsOverAtOnceNotAfterItsLeaseTtl() throws Exception {
        try (TestFleet.Running a = fleet.coordinator("a", Duration.ofSeconds(60), Duration.ofMinutes(10));
             TestFleet.Running b = fleet.coordinator("b", Duration.ofSeconds(60), Duration.ofMinutes(10))) {
            await().atMost(Duration.ofSeconds(20)).until(() -> a.leading() || b.leading());
            TestFleet.Running leader = a.leading() ? a : b;
            TestFleet.Running other = leader == a ? b : a;
            leader.close();
            await().atMost(Duration.ofSeconds(10)).until(other::leading);
        }
    }

    @Test
    void afterEtcdRestartsTheCoordinatorCatchesUpAndPublishesNothingTwice(LocalEtcd local) throws Exception {
        fleet.register("h1", Map.of("role", "web"));
        coordinator = fleet.coordinator("c1");
        long first = fleet.deploy(BY_ROLE);
        awaitPointer("h1", first);

        local.kill();
        local.start();
        await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> fleet.pointer("h1") != null);
        long second = fleet.deploy(BY_ROLE.replace("managed", "changed"));
        await().atMost(Duration.ofSeconds(40)).until(() -> fleet.pointer("h1"), p -> p.getDeploy() == second);
        assertThat(fleet.pointerKey("h1").orElseThrow().getVersion()).isEqualTo(2);
    }

    @Test
    void whenTheLeaderDiesAnotherTakesOverAndPublishesNothingTwice() throws Exception {
        fleet.register("h1", Map.of("role", "web"));
        fleet.register("h2", Map.of("role", "db"));
        long first = fleet.deploy(BY_ROLE);
        TestFleet.Running a = fleet.coordinator("a");
        TestFleet.Running b = fleet.coordinator("b");
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> a.leading() || b.leading());
            awaitPointer("h1", first);
            awaitPointer("h2", first);
            TestFleet.Running leader = a.leading() ? a : b;
            TestFleet.Running other = leader == a ? b : a;
            assertThat(other.leading()).isFalse();
            GetOption count = GetOption.builder().isPrefix(true).withCountOnly(true).build();
            await("both campaign under the namespace: jetcd applies it to the election's name").atMost(Duration.ofSeconds(10))
                    .until(() -> fleet.etcd.await(fleet.etcd.kv().get(Keys.LEADER, count)).getCount() == 2);

            leader.crash();
            await().atMost(Duration.ofSeconds(10)).until(other::leading);
            long second = fleet.deploy(BY_ROLE.replace("managed", "changed"));
            awaitPointer("h1", second);
            awaitPointer("h2", second);
            assertThat(fleet.pointerKey("h1").orElseThrow().getVersion()).as("written once per deploy").isEqualTo(2);
            assertThat(fleet.pointerKey("h2").orElseThrow().getVersion()).isEqualTo(2);
        } finally {
            a.close();
            b.close();
        }
    }
}
