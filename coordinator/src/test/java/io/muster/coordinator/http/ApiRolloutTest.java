package io.muster.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.muster.agent.etcd.Etcd;
import io.muster.agent.testing.LocalEtcd;
import io.muster.agent.testing.SimulatedAgents;
import io.muster.coordinator.rollout.RolloutCommands;
import io.muster.coordinator.rollout.RolloutSpec;
import io.muster.coordinator.rollout.RolloutStart;
import io.muster.coordinator.rollout.Share;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A deploy that goes out in waves, as the API shows it and lets it be resumed. */
@ExtendWith(LocalEtcd.class)
class ApiRolloutTest {
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private ApiFleet fleet;
    private SimulatedAgents agents;

    @AfterEach
    void close() throws Exception {
        if (agents != null) agents.close();
        if (fleet != null) fleet.close();
    }

    /** h1..h4 converged on a first deploy, then a second in waves (canary h1, then 2 by 2), whose canary fails. */
    private long haltedOnItsCanary(LocalEtcd local, Path tokenFile) throws Exception {
        fleet = new ApiFleet(local, "api-rollout", dir, tokenFile);
        agents = new SimulatedAgents(fleet.fleet.etcd);
        for (int i = 1; i <= 4; i++) fleet.fleet.register("h" + i, Map.of("role", "web"));
        fleet.deploy("first", "h1", "h2", "h3", "h4");
        agents.failing.add("h1");
        RolloutSpec spec = new RolloutSpec(1, Share.parse("2"), new Share(0, false), Duration.ZERO, null);
        long second = fleet.fleet.deploy(ApiFleet.SITE + "# second\n", RolloutStart.of(fleet.client, spec, Clock.systemUTC()));
        await().atMost(PATIENCE).until(() -> rollout(second).get("state"), "stalled"::equals);
        return second;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> rollout(long deploy) throws Exception {
        return (Map<String, Object>) fleet.json("/api/v1/deploys/" + deploy).get("rollout");
    }

    @SuppressWarnings("unchecked")
    private static List<String> progress(Map<String, Object> wave) {
        return ((List<Object>) wave.get("progress")).stream()
                .map(p -> ((Map<String, Object>) p).get("host") + " " + ((Map<String, Object>) p).get("progress")).toList();
    }

    @Test
    @SuppressWarnings("unchecked")
    void aDeployShowsItsWavesEachHostsProgressAndTheDeployListEachRollout(LocalEtcd local) throws Exception {
        long second = haltedOnItsCanary(local, null);

        Map<String, Object> rollout = rollout(second);
        assertThat(rollout).containsEntry("state", "stalled").containsEntry("wave", 1L)
                .containsEntry("reason", "wave 1 of 3 (canary): 1 of 1 hosts failed (at most 0 allowed): h1");
        List<Map<String, Object>> waves = (List<Map<String, Object>>) rollout.get("waves");
        assertThat(waves).extracting(w -> w.get("wave") + " " + w.get("state")).containsExactly("1 halted", "2 waiting", "3 waiting");
        assertThat(waves.getFirst()).containsEntry("canary", true).containsEntry("failed", List.of("h1"));
        assertThat(progress(waves.getFirst())).containsExactly("h1 failed");
        assertThat(progress(waves.get(1))).containsExactly("h2 pending", "h3 pending");

        Map<String, Object> deploys = fleet.json("/api/v1/deploys");
        List<Map<String, Object>> entries = (List<Map<String, Object>>) deploys.get("deploys");
        assertThat(entries.getFirst()).containsEntry("rollout", null);
        assertThat((Map<String, Object>) entries.get(1).get("rollout")).containsEntry("state", "stalled").containsEntry("wave", 1L)
                .containsEntry("waves", 3L);

        HttpResponse<String> disabled = resume(second, "Bearer anything");
        assertThat(disabled.statusCode()).isEqualTo(403);
        assertThat(disabled.body()).contains("changes are disabled");

        // the canary's agent goes: lost, not failed
        fleet.lose("h1");
        await().atMost(PATIENCE).until(() -> progress(((List<Map<String, Object>>) rollout(second).get("waves")).getFirst()),
                List.of("h1 lost")::equals);
    }

    @Test
    void aHaltedRolloutIsResumedWithTheTokenOnlyAndNothingElseIsResumed(LocalEtcd local) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        long second = haltedOnItsCanary(local, token);
        for (String refused : new String[] {null, "Bearer wrong"}) {
            HttpResponse<String> response = resume(second, refused);
            assertThat(response.statusCode()).as(String.valueOf(refused)).isEqualTo(401);
            assertThat(response.body()).contains("a change needs the API token");
        }
        assertThat(resume(99, "Bearer s3cret-token").statusCode()).isEqualTo(404);
        HttpResponse<String> notHalted = resume(second - 1, "Bearer s3cret-token");
        assertThat(notHalted.statusCode()).isEqualTo(409);
        assertThat(notHalted.body()).contains("cannot resume deploy " + (second - 1) + ": deploy " + second + " is current");

        agents.failing.remove("h1");
        agents.report("h1");
        HttpResponse<String> resumed = resume(second, "Bearer s3cret-token");
        assertThat(resumed.statusCode()).isEqualTo(200);
        assertThat(resumed.body()).isEqualTo("{\"schema\":1,\"deploy\":" + second + ",\"wave\":1,\"waves\":3}");
        await().atMost(PATIENCE).until(() -> rollout(second).get("state"), "done"::equals);
        HttpResponse<String> done = resume(second, "Bearer s3cret-token");
        assertThat(done.statusCode()).isEqualTo(409);
        assertThat(done.body()).contains("cannot resume deploy " + second + ": its rollout is done");
        assertThat(fleet.get("/api/v1/deploys/" + second + "/resume").statusCode()).as("a GET changes nothing").isEqualTo(405);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aRollbackThroughTheApiOfADeployStillGoingOutReturnsItsHostsToTheDeployTheOthersKept(LocalEtcd local) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        long second = haltedOnItsCanary(local, token);
        HttpRequest request = HttpRequest.newBuilder(fleet.uri("/api/v1/deploys/" + second + "/rollback"))
                .header("Authorization", "Bearer s3cret-token").POST(HttpRequest.BodyPublishers.noBody()).build();
        HttpResponse<String> back = fleet.http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(back.body()).isEqualTo("{\"schema\":1,\"from\":" + second + ",\"to\":" + (second - 1) + "}");
        assertThat(rollout(second)).containsEntry("state", "rolled_back").containsEntry("reason", "rolled back to deploy " + (second - 1));
        assertThat(((List<Map<String, Object>>) rollout(second).get("waves")).getFirst()).containsEntry("state", "stopped");
    }

    private HttpResponse<String> resume(long deploy, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(fleet.uri("/api/v1/deploys/" + deploy + "/resume")).POST(HttpRequest.BodyPublishers.noBody());
        if (authorization != null) request.header("Authorization", authorization);
        return fleet.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theEventStreamTellsEachWaveStartedDoneOrHaltedAndTheRolloutResumed(LocalEtcd local) throws Exception {
        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        fleet = new ApiFleet(local, "api-rollout-events", dir, token);
        agents = new SimulatedAgents(fleet.fleet.etcd);
        for (int i = 1; i <= 4; i++) fleet.fleet.register("h" + i, Map.of("role", "web"));
        fleet.deploy("first", "h1", "h2", "h3", "h4");
        try (SseClient stream = new SseClient(fleet, "/api/v1/events", null)) {
            await().atMost(PATIENCE).until(stream::opened);
            agents.failing.add("h2");
            RolloutSpec spec = new RolloutSpec(1, Share.parse("3"), new Share(0, false), Duration.ZERO, null);
            long second = fleet.fleet.deploy(ApiFleet.SITE + "# second\n", RolloutStart.of(fleet.client, spec, Clock.systemUTC()));

            assertThat(stream.next("wave", d -> d.get("event").equals("started"))).containsEntry("deploy", second).containsEntry("wave", 1L)
                    .containsEntry("waves", 2L);
            assertThat(stream.next("wave", d -> d.get("event").equals("done"))).containsEntry("wave", 1L);
            assertThat(stream.next("wave", d -> d.get("event").equals("started"))).containsEntry("wave", 2L);
            Map<String, Object> halted = stream.next("wave", d -> d.get("event").equals("halted"));
            assertThat(halted).containsEntry("wave", 2L).containsEntry("failed", List.of("h2"))
                    .containsEntry("reason", "wave 2 of 2: 1 of 3 hosts failed (at most 0 allowed): h2");
            assertThat((Map<String, Object>) halted.get("rollout")).containsEntry("state", "stalled");

            agents.failing.remove("h2");
            agents.report("h2");
            assertThat(resume(second, "Bearer s3cret-token").statusCode()).isEqualTo(200);
            assertThat(stream.next("rollout", d -> true)).containsEntry("event", "resumed").containsEntry("deploy", second);
            assertThat(stream.next("rollout", d -> true)).containsEntry("event", "done");
        }
    }

    @Test
    void aRollbackOfAHaltedRolloutIsToldByACoordinatorThatDoesNotLeadToo(LocalEtcd local) throws Exception {
        long second = haltedOnItsCanary(local, null);
        try (Etcd followerClient = Etcd.connect(fleet.fleet.options);
             ApiServer follower = ApiServer.start(followerClient, new ApiOptions("127.0.0.1:0", null), "c2", () -> false, new CompileHistogram());
             SseClient stream = new SseClient(fleet.http, URI.create("http://127.0.0.1:" + follower.port() + "/api/v1/events"), null)) {
            await().atMost(PATIENCE).until(stream::opened);
            new RolloutCommands(fleet.client, Clock.systemUTC()).rollback(OptionalLong.empty());
            assertThat(stream.next("rollout", d -> true)).containsEntry("event", "rolled_back").containsEntry("deploy", second)
                    .containsEntry("reason", "rolled back to deploy " + (second - 1));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aWaveWhoseHostsDoNotSettleInTimeIsTimedOutWithThoseHostsApplying(LocalEtcd local) throws Exception {
        fleet = new ApiFleet(local, "api-rollout-timeout", dir, null);
        agents = new SimulatedAgents(fleet.fleet.etcd);
        for (int i = 1; i <= 3; i++) fleet.fleet.register("h" + i, Map.of("role", "web"));
        fleet.deploy("first", "h1", "h2", "h3");
        agents.held.add("h1");
        RolloutSpec spec = new RolloutSpec(1, Share.parse("2"), new Share(0, false), Duration.ofMillis(500), null);
        long second = fleet.fleet.deploy(ApiFleet.SITE + "# second\n", RolloutStart.of(fleet.client, spec, Clock.systemUTC()));
        await().atMost(PATIENCE).until(() -> rollout(second).get("state"), "stalled"::equals);
        Map<String, Object> wave = ((List<Map<String, Object>>) rollout(second).get("waves")).getFirst();
        assertThat(wave).containsEntry("state", "timed-out").containsEntry("pending", List.of("h1"));
        assertThat(progress(wave)).containsExactly("h1 applying");
    }
}
