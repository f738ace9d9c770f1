package io.muster.coordinator.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.agent.testing.Promtool;
import io.muster.coordinator.Coordinator;
import io.muster.coordinator.CoordinatorOptions;
import io.muster.engine.util.Json;
import io.muster.proto.graph.ExportedResource;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LocalEtcd.class)
class ApiServerTest {
    private static final String WEB_FILE = "file#/tmp/muster-api-test/web.conf";
    private static final String DB_FILE = "file#/tmp/muster-api-test/db.conf";

    @TempDir
    Path dir;

    private ApiFleet fleet;

    @AfterEach
    void close() throws Exception {
        if (fleet != null) fleet.close();
    }

    /** web1 converged and db1 failed on deploy 1. */
    private long twoHosts(LocalEtcd local, Path tokenFile) throws Exception {
        fleet = new ApiFleet(local, "api", dir, tokenFile);
        fleet.fleet.register("web1", Map.of("role", "web"));
        fleet.fleet.register("db1", Map.of("role", "db"));
        long deploy = fleet.deploy("first", "web1", "db1");
        fleet.report("web1");
        fleet.report("db1", DB_FILE, "cannot write: permission denied");
        await().atMost(Duration.ofSeconds(10)).until(() -> state("db1"), "failed"::equals);
        return deploy;
    }

    @SuppressWarnings("unchecked")
    private String state(String host) throws Exception {
        for (Object row : (List<Object>) fleet.json("/api/v1/hosts").get("hosts")) {
            Map<String, Object> r = (Map<String, Object>) row;
            if (r.get("host").equals(host)) return (String) r.get("state");
        }
        return null;
    }

    @Test
    @SuppressWarnings("unchecked")
    void hostsTheirStatesAndAHostsFailuresWithTheManifestLineTheyAreWrittenAt(LocalEtcd local) throws Exception {
        long deploy = twoHosts(local, null);

        Map<String, Object> hosts = fleet.json("/api/v1/hosts");
        assertThat(hosts).containsEntry("schema", 1L).containsEntry("current_deploy", deploy);
        assertThat((Map<String, Object>) hosts.get("counts")).containsEntry("converged", 1L).containsEntry("failed", 1L).containsEntry("lost", 0L);
        assertThat((List<Object>) hosts.get("hosts")).extracting(h -> ((Map<String, Object>) h).get("host")).containsExactly("db1", "web1");
        Map<String, Object> failedOnly = fleet.json("/api/v1/hosts?state=failed");
        assertThat((List<Object>) failedOnly.get("hosts")).singleElement().satisfies(h -> assertThat((Map<String, Object>) h)
                .containsEntry("host", "db1").containsEntry("state", "failed").containsEntry("deploy", deploy).containsEntry("assigned_deploy", deploy));
        HttpResponse<String> badState = fleet.get("/api/v1/hosts?state=red");
        assertThat(badState.statusCode()).isEqualTo(400);
        assertThat(badState.body()).contains("\"error\":\"state: expected converged, drifting, failed or lost, got 'red'\"");

        Map<String, Object> db1 = fleet.json("/api/v1/hosts/db1");
        assertThat(db1).containsEntry("host", "db1").containsEntry("state", "failed").containsEntry("alive", true);
        assertThat((List<Object>) db1.get("failed")).singleElement().satisfies(f -> assertThat((Map<String, Object>) f)
                .containsEntry("id", DB_FILE).containsEntry("error", "cannot write: permission denied")
                .containsEntry("file", "site.yaml").containsEntry("line", 3L).containsEntry("column", 9L));
        assertThat((Map<String, Object>) db1.get("facts")).containsEntry("role", "db");
        Map<String, Object> graph = (Map<String, Object>) db1.get("graph");
        assertThat(graph).containsEntry("resources", 1L).containsEntry("deploy", deploy).containsEntry("manifests", List.of("site.yaml"));
        assertThat((Map<String, Object>) graph.get("kinds")).containsEntry("file", 1L);
        assertThat((List<Object>) db1.get("events")).isNotEmpty()
                .allSatisfy(e -> assertThat(((Map<String, Object>) e).get("type")).isEqualTo("host"));
        HttpResponse<String> unknown = fleet.get("/api/v1/hosts/nosuch");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(unknown.body()).contains("no host nosuch");
        assertThat(fleet.get("/api/v1/hosts/no%20such").body()).contains("invalid host name 'no such'");
    }

    @Test
    @SuppressWarnings("unchecked")
    void deploysEachWithItsHostsProgressAndExports(LocalEtcd local) throws Exception {
        long first = twoHosts(local, null);
        long second = fleet.deploy("second", "web1", "db1");
        fleet.report("web1");

        Map<String, Object> deploys = fleet.json("/api/v1/deploys");
        assertThat(deploys).containsEntry("current", second);
        assertThat((List<Object>) deploys.get("deploys")).extracting(d -> ((Map<String, Object>) d).get("id")).containsExactly(first, second);
        assertThat((Map<String, Object>) ((List<Object>) deploys.get("deploys")).get(1)).containsEntry("who", "t@h").containsEntry("message", "test");

        Map<String, Object> progress = fleet.json("/api/v1/deploys/" + second);
        assertThat(progress).containsEntry("current", true).doesNotContainKey("waves");
        assertThat((Map<String, Object>) progress.get("progress")).containsEntry("converged", 1L).containsEntry("applying", 1L)
                .containsEntry("pending", 0L).containsEntry("total", 2L);
        assertThat((List<Object>) progress.get("hosts")).extracting(h -> ((Map<String, Object>) h).get("host") + " " + ((Map<String, Object>) h).get("progress"))
                .containsExactly("db1 applying", "web1 converged");
        Map<String, Object> old = fleet.json("/api/v1/deploys/" + first);
        assertThat(old).containsEntry("current", false);
        assertThat((Map<String, Object>) old.get("progress")).containsEntry("failed", 1L);
        assertThat(fleet.get("/api/v1/deploys/99").statusCode()).isEqualTo(404);

        String export = Base64.getEncoder().encodeToString(ExportedResource.newBuilder().setVersion(1).setKind("file").setName("backend")
                .addTags("pool").build().toByteArray());
        long lease = fleet.client.await(fleet.client.kv().get(Keys.alive("web1"))).getKvs().getFirst().getLease(); // as its agent binds it
        fleet.client.await(fleet.client.kv().put(Keys.exported("file", "web1", "backend"), ByteSequence.from(export, StandardCharsets.UTF_8),
                PutOption.builder().withLeaseId(lease).build()));
        Map<String, Object> exports = fleet.json("/api/v1/exports");
        assertThat((List<Object>) exports.get("exports")).singleElement().satisfies(e -> assertThat((Map<String, Object>) e)
                .containsEntry("kind", "file").containsEntry("exporter", "web1").containsEntry("name", "backend").containsEntry("tags", List.of("pool")));
        assertThat((List<Object>) fleet.json("/api/v1/exports?kind=exec").get("exports")).isEmpty();
        assertThat((List<Object>) fleet.json("/api/v1/hosts/web1").get("exports")).containsExactly("file#backend");
    }

    @Test
    void whoAnswersWhoLeadsAndWhatIsNoResource(LocalEtcd local) throws Exception {
        twoHosts(local, null);
        await().atMost(Duration.ofSeconds(10)).until(() -> fleet.json("/api/v1").get("leading"), Boolean.TRUE::equals);
        assertThat(fleet.json("/api/v1")).containsEntry("coordinator", "c1").containsEntry("leader", "c1").containsEntry("changes", false);
        HttpResponse<String> none = fleet.get("/api/v1/nothing");
        assertThat(none.statusCode()).isEqualTo(404);
        assertThat(none.body()).startsWith("{\"schema\":1,\"error\":\"no such resource: /api/v1/nothing");
        HttpResponse<String> post = fleet.http.send(HttpRequest.newBuilder(fleet.uri("/api/v1/hosts")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    }

    @Test
    @SuppressWarnings("unchecked")
    void aFollowerAnswersFromEtcdToo(LocalEtcd local) throws Exception {
        twoHosts(local, null);
        await().atMost(Duration.ofSeconds(10)).until(fleet.coordinator::leading);
        try (var followerClient = io.muster.agent.etcd.Etcd.connect(fleet.fleet.options);
             Coordinator follower = new Coordinator(followerClient, new CoordinatorOptions("c2", Duration.ofSeconds(2), 1, dir.resolve("c2"),
                     Duration.ofMinutes(10)), ApiFleet.CODEC).start();
             ApiServer api = ApiServer.start(followerClient, new ApiOptions("127.0.0.1:0", null), "c2", follower::leading, new CompileHistogram())) {
            HttpResponse<String> info = fleet.http.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + api.port() + "/api/v1")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat((Map<String, Object>) Json.parse(info.body())).containsEntry("coordinator", "c2").containsEntry("leading", false)
                    .containsEntry("leader", "c1");
            HttpResponse<String> failed = fleet.http.send(HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + api.port()
                    + "/api/v1/hosts?state=failed")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(failed.body()).contains("\"host\":\"db1\"").doesNotContain("\"host\":\"web1\"");
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theEventStreamTellsEachHostThatFailsConvergesOrIsLostAndEachDeploy(LocalEtcd local) throws Exception {
        twoHosts(local, null);
        String since = (String) fleet.json("/api/v1/hosts").get("event");
        try (SseClient stream = new SseClient(fleet, "/api/v1/events?since=" + since, null)) {
            fleet.report("web1", WEB_FILE, "disk full");
            Map<String, Object> failed = stream.next("host", d -> ((Map<String, Object>) d.get("host")).get("host").equals("web1"));
            assertThat((Map<String, Object>) failed.get("host")).containsEntry("state", "failed");
            assertThat(failed).containsEntry("previous", "converged");

            fleet.report("web1");
            assertThat(stream.next("host", d -> true)).containsEntry("previous", "failed")
                    .satisfies(d -> assertThat((Map<String, Object>) d.get("host")).containsEntry("state", "converged"));

            fleet.lose("web1");
            assertThat(stream.next("host", d -> true)).satisfies(d -> assertThat((Map<String, Object>) d.get("host")).containsEntry("state", "lost"));

            long next = fleet.fleet.deploy(ApiFleet.SITE + "# next\n");
            assertThat((Map<String, Object>) stream.next("deploy", d -> true).get("deploy")).containsEntry("id", next);
            assertThat(stream.next("current", d -> true)).containsEntry("current_deploy", next);

            // a reconnection with the last id it saw gets what came after; an id of no use here gets a reset first
            try (SseClient again = new SseClient(fleet, "/api/v1/events", failed.get("_id").toString())) {
                assertThat(again.next("host", d -> true)).containsEntry("previous", "failed");
            }
            try (SseClient stale = new SseClient(fleet, "/api/v1/events?since=another-coordinator.5", null)) {
                stale.next("reset", d -> true);
            }
        }
    }

    @Test
    void changesNeedTheTokenAndNoneAreMadeWithoutATokenFile(LocalEtcd local) throws Exception {
        long first = twoHosts(local, null);
        long second = fleet.deploy("second", "web1", "db1");
        HttpResponse<String> disabled = rollback(second, "Bearer anything");
        assertThat(disabled.statusCode()).isEqualTo(403);
        assertThat(disabled.body()).contains("changes are disabled: the coordinator was started without --api-token-file");
        fleet.close();

        Path token = Files.writeString(dir.resolve("token"), "s3cret-token\n");
        fleet = new ApiFleet(local, "api-token", dir.resolve("second"), token);
        long a = fleet.fleet.deploy(ApiFleet.SITE);
        long b = fleet.fleet.deploy(ApiFleet.SITE + "# b\n");
        for (String refused : new String[] {null, "Bearer wrong", "Basic s3cret-token", "Bearer s3cret-token-and-more"}) {
            HttpResponse<String> response = rollback(b, refused);
            assertThat(response.statusCode()).as(String.valueOf(refused)).isEqualTo(401);
            assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"muster\"");
            assertThat(response.body()).contains("a change needs the API token");
        }
        assertThat(fleet.json("/api/v1/deploys")).containsEntry("current", b);
        HttpResponse<String> notCurrent = rollback(a, "Bearer s3cret-token");
        assertThat(notCurrent.statusCode()).isEqualTo(409);
        assertThat(notCurrent.body()).contains("deploy " + a + " is not the current deploy (" + b + " is)");
        assertThat(rollback(99, "Bearer s3cret-token").statusCode()).isEqualTo(404);

        HttpResponse<String> done = rollback(b, "Bearer s3cret-token");
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(done.body()).isEqualTo("{\"schema\":1,\"from\":" + b + ",\"to\":" + a + "}");
        assertThat(fleet.json("/api/v1/deploys")).containsEntry("current", a);
        assertThat(fleet.get("/api/v1/deploys/" + a + "/rollback").statusCode()).as("a GET changes nothing").isEqualTo(405);
        assertThat(first).isEqualTo(1);
    }

    private HttpResponse<String> rollback(long deploy, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(fleet.uri("/api/v1/deploys/" + deploy + "/rollback")).POST(HttpRequest.BodyPublishers.noBody());
        if (authorization != null) request.header("Authorization", authorization);
        return fleet.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsCountTheFleetAndTheCompilesAndPromtoolFindsNothingToFlag(LocalEtcd local) throws Exception {
        twoHosts(local, null);
        await().atMost(Duration.ofSeconds(10)).until(fleet.coordinator::leading);
        HttpResponse<String> metrics = fleet.get("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("muster_fleet_hosts{state=\"failed\"} 1", "muster_fleet_hosts{state=\"converged\"} 1",
                "muster_fleet_hosts{state=\"lost\"} 0", "muster_fleet_current_deploy 1", "muster_fleet_deploy_hosts{progress=\"failed\"} 1",
                "muster_coordinator_leading 1", "muster_coordinator_compile_seconds_count{result=\"ok\"} 2");
        assertThat(Promtool.problems(metrics.body(), dir)).as("promtool check metrics").isEmpty();
    }

    @Test
    void thePageIsServedFromTheJar(LocalEtcd local) throws Exception {
        fleet = new ApiFleet(local, "api-page", dir, null);
        HttpResponse<String> page = fleet.get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.body()).contains("<title>muster fleet</title>", "<script src=\"app.js\"");
        assertThat(fleet.get("/app.js").headers().firstValue("Content-Type")).hasValue("text/javascript; charset=utf-8");
        assertThat(fleet.get("/style.css").statusCode()).isEqualTo(200);
        assertThat(fleet.get("/../pom.xml").statusCode()).isEqualTo(404);
        assertThat(fleet.get("/ApiServer.class").statusCode()).isEqualTo(404);
    }
}
