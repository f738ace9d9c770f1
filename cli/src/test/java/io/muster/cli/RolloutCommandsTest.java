package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.agent.testing.SimulatedAgents;
import io.muster.engine.util.Json;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.Facts;
import io.muster.proto.value.Entry;
import io.muster.proto.value.Value;
import io.muster.proto.value.ValueMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rollouts as a user runs them: a real etcd, a {@code muster coordinator} process, hosts that report as agents
 * do ({@link SimulatedAgents}), and deploy in waves, status, resume and rollback through the CLI.
 */
@ExtendWith(LocalEtcd.class)
class RolloutCommandsTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    private String endpoint;
    private String namespace;
    private Etcd etcd;
    private SimulatedAgents agents;
    private MusterProcess coordinator;

    @BeforeEach
    void fleet(LocalEtcd local) throws Exception {
        endpoint = local.endpoint();
        namespace = LocalEtcd.uniqueNamespace("rollout");
        etcd = Etcd.connect(EtcdOptions.of(endpoint, namespace, Duration.ofSeconds(5)));
        agents = new SimulatedAgents(etcd);
        for (String host : List.of("a1", "b1", "b2")) register(host, host.substring(0, 1).equals("a") ? "2" : "1");
    }

    @AfterEach
    void close() throws Exception {
        if (coordinator != null) coordinator.close();
        agents.close();
        etcd.close();
    }

    private void register(String host, String rack) throws Exception {
        ValueMap facts = ValueMap.newBuilder().addEntries(Entry.newBuilder().setKey("rack").setValue(Value.newBuilder().setText(rack))).build();
        etcd.await(etcd.kv().put(Keys.facts(host), ByteSequence.from(Facts.newBuilder().setFacts(facts).build().toByteArray())));
        etcd.await(etcd.kv().put(Keys.alive(host), ByteSequence.from(Alive.newBuilder().setVersion("test").build().toByteArray())));
    }

    private Cli muster(Object... args) {
        List<Object> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--etcd", endpoint, "--namespace", namespace));
        return Cli.run(all.toArray());
    }

    private Path bundle(String release) throws Exception {
        Path bundle = Files.createDirectories(dir.resolve(release));
        Files.writeString(bundle.resolve("site.yaml"), "resources:\n  - file: {name: /tmp/muster-rollout-cli-test, content: \"" + release + " ${ facts.rack }\\n\"}\n");
        return bundle;
    }

    private void startCoordinator() throws Exception {
        coordinator = MusterProcess.start(dir, "coordinator", "coordinator", "--etcd", endpoint, "--namespace", namespace,
                "--prefix", dir.resolve("coordinator"), "--lease-ttl", "2", "--connect-timeout", "30");
    }

    @Test
    void aHaltedWaveIsNamedByDeployWaitAndStatusThenResumedOrRolledBack() throws Exception {
        startCoordinator();
        Cli first = muster("deploy", bundle("v1"), "--wait", "--timeout", "60");
        assertThat(first.exit()).as(first.err() + coordinator.err()).isZero();

        agents.failing.add("b1"); // in rack 1: the canary, ordered by rack
        Cli halted = muster("deploy", bundle("v2"), "--canary", "1", "--batch", "1", "--order-by", "facts.rack", "--wait", "--timeout", "60",
                "--output", "json");
        assertThat(halted.exit()).as(halted.err()).isEqualTo(2);
        ReportSchema.assertValid(halted.out());
        Map<?, ?> rollout = (Map<?, ?>) ((Map<?, ?>) Json.parse(halted.out())).get("rollout");
        assertThat(rollout.get("state")).isEqualTo("stalled");
        assertThat(rollout.get("previous")).isEqualTo(1L);
        assertThat(rollout.get("reason")).isEqualTo("wave 1 of 3 (canary): 1 of 1 hosts failed (at most 0 allowed): b1");
        List<?> waves = (List<?>) rollout.get("waves");
        assertThat(waves.stream().map(w -> ((Map<?, ?>) w).get("hosts")).toList()).isEqualTo(List.of(List.of("b1"), List.of("b2"), List.of("a1")));
        assertThat(((Map<?, ?>) waves.get(0)).get("failed")).isEqualTo(List.of("b1"));
        assertThat(((Map<?, ?>) waves.get(1)).get("state")).isEqualTo("waiting");

        Cli status = muster("status");
        assertThat(status.out()).contains("""
                current deploy: 2
                rollout of deploy 2: stalled at wave 1 of 3 (hosts not reached keep deploy 1)
                  wave 1 of 3 (canary): 1 of 1 hosts failed (at most 0 allowed): b1
                  wave 1 (canary) halted: 0 of 1 converged; failed: b1
                  waves 2-3 waiting: 2 hosts
                """);
        ReportSchema.assertValid(muster("status", "--output", "json").out());

        Cli again = muster("deploy", "--resume", "2", "--wait", "--timeout", "60");
        assertThat(again.exit()).isEqualTo(2);
        assertThat(again.out()).startsWith("2\n").contains("b1: failed\n  file#/etc/app.conf: disk full\n")
                .contains("a1: not converged (still on deploy 1)\n");
        assertThat(again.err()).contains("deploy 2: rollout resumed at wave 1 of 3\n")
                .contains("wave 1 of 3 (canary) halted: 0 of 1 converged; failed: b1\n")
                .contains("muster: deploy 2 stalled: wave 1 of 3 (canary): 1 of 1 hosts failed (at most 0 allowed): b1\n")
                .contains("muster deploy --resume 2 checks wave 1 again and goes on");

        agents.failing.remove("b1");
        agents.report("b1");
        Cli resumed = muster("deploy", "--resume", "2", "--wait", "--timeout", "60");
        assertThat(resumed.exit()).as(resumed.err()).isZero();
        assertThat(resumed.out()).isEqualTo("2\na1: converged\nb1: converged\nb2: converged\n");
        assertThat(resumed.err()).contains("wave 1 of 3 (canary) done: 1 of 1 converged\n", "wave 2 of 3 started: 1 host\n",
                "wave 2 of 3 done: 1 of 1 converged\n", "wave 3 of 3 done: 1 of 1 converged\n");
        assertThat(muster("status").out()).contains("rollout of deploy 2: done\n");
        assertThat(muster("deploy", "--resume", "2").err()).isEqualTo("muster: cannot resume deploy 2: its rollout is done\n");

        agents.failing.add("b2");
        Cli third = muster("deploy", bundle("v3"), "--canary", "1", "--batch", "1", "--order-by", "facts.rack", "--wait", "--timeout", "60");
        assertThat(third.exit()).as(third.err()).isEqualTo(2);
        assertThat(third.err()).contains("muster: deploy 3 stalled: wave 2 of 3: 1 of 1 hosts failed (at most 0 allowed): b2\n");
        assertThat(muster("rollback").out()).isEqualTo("rolled back from deploy 3 to 2\n");
        await().atMost(PATIENCE).until(() -> agents.pointers("b1").getLast().getDeploy() == 2 && agents.pointers("b2").getLast().getDeploy() == 2);
        assertThat(agents.times("b2", 3)).isEqualTo(1);
        assertThat(agents.times("a1", 3)).as("a host the rollout had not reached").isZero();
    }

    @Test
    void rolloutFlagsAreCheckedBeforeAnythingIsRead() throws Exception {
        Path site = bundle("v1");
        assertThat(muster("deploy", site, "--max-failures", "1").err()).contains("--max-failures, --wave-timeout and --order-by go with --canary or --batch");
        assertThat(muster("deploy", site, "--batch", "0").exit()).isEqualTo(64);
        assertThat(muster("deploy", site, "--batch", "ten").err()).contains("--batch: expected a number of hosts N or a percentage P%, got 'ten'");
        assertThat(muster("deploy", site, "--canary", "1", "--order-by", "rack").err()).contains("--order-by: expected facts.NAME (facts.rack), got 'rack'");
        assertThat(muster("deploy", site, "--resume", "1").exit()).isEqualTo(64);
        assertThat(muster("deploy").exit()).isEqualTo(64);
        assertThat(muster("deploys").out()).doesNotContain("1 ");
    }
}
