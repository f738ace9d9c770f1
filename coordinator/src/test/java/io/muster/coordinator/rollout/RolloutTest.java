package io.muster.coordinator.rollout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.agent.testing.LocalEtcd;
import io.muster.agent.testing.SimulatedAgents;
import io.muster.coordinator.TestFleet;
import io.muster.coordinator.deploy.DeployHistory;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.Rollout;
import io.muster.proto.fleet.RolloutState;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LocalEtcd.class)
class RolloutTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private TestFleet fleet;
    private SimulatedAgents agents;
    private TestFleet.Running c1;
    private TestFleet.Running c2;

    @BeforeEach
    void fleet(LocalEtcd local) throws Exception {
        fleet = new TestFleet(local, "rollout", dir);
        agents = new SimulatedAgents(fleet.etcd);
    }

    @AfterEach
    void close() throws Exception {
        if (c1 != null) c1.close();
        if (c2 != null) c2.close();
        agents.close();
        fleet.close();
    }

    private static String site(String release) {
        return """
                resources:
                  - file:
                      - /tmp/muster-rollout-test/${ facts.role }.conf: {content: "%s\\n"}
                """.formatted(release);
    }

    private long deployInWaves(String release, int canaries, String batch) throws Exception {
        RolloutSpec spec = new RolloutSpec(canaries, Share.parse(batch), new Share(0, false), Duration.ZERO, null);
        return fleet.deploy(site(release), RolloutStart.of(fleet.etcd, spec, Clock.systemUTC()));
    }

    private void register(int hosts) throws Exception {
        for (int i = 1; i <= hosts; i++) fleet.register("h" + i, Map.of("role", "web"));
    }

    private Rollout rollout(long deploy) throws Exception {
        return Rollouts.read(fleet.etcd, deploy).orElseThrow();
    }

    private Rollout awaitState(long deploy, RolloutState state) {
        return await().atMost(PATIENCE).until(() -> rollout(deploy), r -> r.getState() == state);
    }

    private void awaitAllOn(long deploy, int hosts) {
        for (int i = 1; i <= hosts; i++) {
            String host = "h" + i;
            await().atMost(PATIENCE).until(() -> fleet.pointer(host), p -> p != null && p.getDeploy() == deploy);
        }
    }

    private long on(String host) throws Exception {
        GraphPointer pointer = fleet.pointer(host);
        return pointer == null ? 0 : pointer.getDeploy();
    }

    @Test
    void aFailingCanaryHaltsTheRolloutAndHostsNotReachedKeepThePreviousDeployUntilItIsResumed() throws Exception {
        register(4);
        c1 = fleet.coordinator("c1");
        long first = fleet.deploy(site("one"));
        awaitAllOn(first, 4);

        agents.failing.add("h1");
        long second = deployInWaves("two", 1, "2");
        Rollout stalled = awaitState(second, RolloutState.STALLED);
        assertThat(stalled.getReason()).isEqualTo("wave 1 of 3 (canary): 1 of 1 hosts failed (at most 0 allowed): h1");
        assertThat(stalled.getWave()).isZero();
        assertThat(List.of(on("h1"), on("h2"), on("h3"), on("h4"))).containsExactly(second, first, first, first);

        // a host not reached is compiled against the previous deploy when its facts change, or when it registers
        String before = fleet.pointer("h3").getGraph();
        fleet.publishFacts("h3", Map.of("role", "db"));
        GraphPointer h3 = await().atMost(PATIENCE).until(() -> fleet.pointer("h3"), p -> !p.getGraph().equals(before));
        assertThat(h3.getDeploy()).isEqualTo(first);
        fleet.register("h5", Map.of("role", "web"));
        assertThat(await().atMost(PATIENCE).until(() -> fleet.pointer("h5"), p -> p != null).getDeploy()).isEqualTo(first);

        // resumed with the canary still failing: checked again, halted again
        RolloutCommands commands = new RolloutCommands(fleet.etcd, Clock.systemUTC());
        Rollout resumed = commands.resume(second);
        assertThat(resumed.getState()).isEqualTo(RolloutState.RUNNING);
        await().atMost(PATIENCE).until(() -> rollout(second), r -> r.getState() == RolloutState.STALLED && r.getUpdated() >= resumed.getUpdated());
        assertThat(on("h2")).isEqualTo(first);

        // fixed on the canary, then resumed: the waves go on; h5, registered since, joins the next wave
        agents.failing.remove("h1");
        agents.report("h1");
        commands.resume(second);
        Rollout done = awaitState(second, RolloutState.DONE);
        assertThat(done.getWavesList()).extracting(w -> List.copyOf(w.getHostsList()))
                .containsExactly(List.of("h1"), List.of("h2", "h3", "h5"), List.of("h4"));
        awaitAllOn(second, 5);
        for (int i = 1; i <= 5; i++) assertThat(agents.times("h" + i, second)).as("h%d given deploy %d", i, second).isEqualTo(1);
    }

    @Test
    void aWaveThatDoesNotSettleWithinItsTimeoutHaltsNamingTheHostsItWaitedFor() throws Exception {
        register(3);
        c1 = fleet.coordinator("c1");
        agents.held.add("h2");
        RolloutSpec spec = new RolloutSpec(1, Share.parse("50%"), Share.parse("1"), Duration.ofSeconds(1), null);
        long deploy = fleet.deploy(site("one"), RolloutStart.of(fleet.etcd, spec, Clock.systemUTC()));
        Rollout stalled = awaitState(deploy, RolloutState.STALLED);
        assertThat(stalled.getReason()).isEqualTo("wave 2 of 2: 1 of 2 hosts did not settle within 1 s: h2");
        assertThat(stalled.getPrevious()).isZero();
        assertThat(stalled.getWaves(1).getPendingList()).containsExactly("h2");
    }

    @Test
    void rollbackReturnsTheHostsReachedToThePreviousDeploy() throws Exception {
        register(3);
        c1 = fleet.coordinator("c1");
        long first = fleet.deploy(site("one"));
        awaitAllOn(first, 3);
        agents.failing.add("h2");
        long second = deployInWaves("two", 1, "1");
        awaitState(second, RolloutState.STALLED);
        assertThat(List.of(on("h1"), on("h2"), on("h3"))).containsExactly(second, second, first);

        DeployHistory.Rollback back = new RolloutCommands(fleet.etcd, Clock.systemUTC()).rollback(OptionalLong.empty());
        assertThat(back).isEqualTo(new DeployHistory.Rollback(second, first));
        awaitAllOn(first, 3);
        assertThat(rollout(second).getState()).isEqualTo(RolloutState.ROLLED_BACK);
        assertThat(agents.times("h3", second)).isZero();
    }

    @Test
    void aNewLeaderGoesOnWithTheSameWaveGivingNoHostTheDeployTwiceAndSkippingNone() throws Exception {
        register(6);
        c1 = fleet.coordinator("c1");
        await().atMost(PATIENCE).until(c1::leading);
        c2 = fleet.coordinator("c2");
        long first = fleet.deploy(site("one"));
        awaitAllOn(first, 6);

        agents.held.add("h3"); // wave 2 (h2, h3) stays under way until it reports
        long second = deployInWaves("two", 1, "2");
        await().atMost(PATIENCE).until(() -> rollout(second), r -> r.getWave() == 1);
        await().atMost(PATIENCE).until(() -> on("h2") == second && on("h3") == second);
        c1.crash();
        await().atMost(PATIENCE).until(c2::leading);
        assertThat(rollout(second).getWave()).as("the same wave, under the new leader").isEqualTo(1);
        assertThat(on("h4")).isEqualTo(first);

        agents.held.remove("h3");
        agents.report("h3");
        awaitState(second, RolloutState.DONE);
        awaitAllOn(second, 6);
        for (int i = 1; i <= 6; i++) {
            assertThat(agents.times("h" + i, second)).as("h%d given deploy %d", i, second).isEqualTo(1);
            assertThat(agents.pointers("h" + i)).extracting(GraphPointer::getDeploy).containsExactly(first, second);
        }
    }
}
