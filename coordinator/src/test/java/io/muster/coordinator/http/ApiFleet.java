package io.muster.coordinator.http;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.coordinator.Coordinator;
import io.muster.coordinator.CoordinatorOptions;
import io.muster.coordinator.GraphEncoder;
import io.muster.coordinator.TestFleet;
import io.muster.engine.codec.GraphCodec;
import io.muster.engine.util.Json;
import io.muster.proto.fleet.Failure;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Summary;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;

/**
 * A fleet for the API's tests: a real etcd, a real coordinator (graphs encoded as agents read them, so a
 * failure's file:line comes from the graph) serving its API on a free port, and simulated agents: a host
 * registers (facts, alive key) and reports on the graph it was pointed at, converged or with failed resources,
 * as an agent's status would.
 */
final class ApiFleet implements AutoCloseable {
    static final GraphEncoder CODEC = graph -> {
        GraphCodec.Encoded encoded = GraphCodec.encode(graph);
        return new GraphEncoder.Encoded(encoded.bytes(), encoded.sha256());
    };
    static final String SITE = """
            resources:
              - file:
                  - /tmp/muster-api-test/${ facts.role }.conf: {content: "managed\\n"}
            """;

    final TestFleet fleet;
    final Etcd client;
    final Coordinator coordinator;
    final ApiServer api;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ApiFleet(LocalEtcd local, String test, Path dir, Path tokenFile) throws Exception {
        fleet = new TestFleet(local, test, dir);
        client = Etcd.connect(fleet.options);
        CompileHistogram compiles = new CompileHistogram();
        coordinator = new Coordinator(client, new CoordinatorOptions("c1", Duration.ofSeconds(2), 2, dir.resolve("state"), Duration.ofMinutes(10)),
                CODEC, compiles).start();
        api = ApiServer.start(client, new ApiOptions("127.0.0.1:0", tokenFile), coordinator.name(), coordinator::leading, compiles);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + api.port() + path);
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The JSON document at {@code path}, which must answer 200. */
    @SuppressWarnings("unchecked")
    Map<String, Object> json(String path) throws Exception {
        HttpResponse<String> response = get(path);
        if (response.statusCode() != 200) throw new AssertionError(path + ": " + response.statusCode() + " " + response.body());
        return (Map<String, Object>) Json.parse(response.body());
    }

    /** A deploy of {@link #SITE}, which every registered host is pointed at before it returns. */
    long deploy(String message, String... hosts) throws Exception {
        long id = fleet.deploy(SITE + "# " + message + "\n");
        for (String host : hosts) {
            await().atMost(Duration.ofSeconds(30)).until(() -> fleet.pointer(host), p -> p != null && p.getDeploy() == id);
        }
        return id;
    }

    /** {@code host} reports the graph it was pointed at converged, with {@code failed} resources failed (id, error pairs). */
    void report(String host, String... failed) throws Exception {
        GraphPointer pointer = fleet.pointer(host);
        HostStatus.Builder status = HostStatus.newBuilder().setDeploy(pointer.getDeploy()).setGraph(pointer.getGraph()).setConverged(true)
                .setUpdated(Clock.systemUTC().millis())
                .setSummary(Summary.newBuilder().setTotal(1).setStable(failed.length == 0 ? 1 : 0).setFailed(failed.length / 2));
        for (int i = 0; i + 1 < failed.length; i += 2) status.addFailed(Failure.newBuilder().setId(failed[i]).setError(failed[i + 1]));
        client.await(client.kv().put(Keys.status(host), ByteSequence.from(status.build().toByteArray())));
    }

    /** {@code host}'s agent goes: its alive key with it. */
    void lose(String host) throws Exception {
        client.await(client.kv().delete(Keys.alive(host)));
    }

    @Override
    public void close() throws Exception {
        api.close();
        coordinator.close();
        client.close();
        fleet.close();
    }
}
