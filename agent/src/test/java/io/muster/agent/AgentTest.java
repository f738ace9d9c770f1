package io.muster.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.agent.testing.Graphs;
import io.muster.engine.resource.Kinds;
import io.muster.engine.metrics.Metrics;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.Facts;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.value.Entry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The agent against a real etcd, with real files: registration, following its graph, status, etcd going away. */
@ExtendWith(LocalEtcd.class)
class AgentTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private final LocalEtcd local;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final String namespace = LocalEtcd.uniqueNamespace("agent");
    private final Etcd etcd;

    @TempDir
    Path dir;

    AgentTest(LocalEtcd local) throws Exception {
        this.local = local;
        this.etcd = Etcd.connect(options());
    }

    private EtcdOptions options() {
        return EtcdOptions.of(local.endpoint(), namespace, Duration.ofSeconds(2));
    }

    @AfterEach
    void close() throws Exception {
        if (!local.running()) local.start();
        for (AutoCloseable c : opened.reversed()) c.close();
        etcd.close();
    }

    private Agent agent(String host) throws Exception {
        return agent(host, dir.resolve("prefix-" + host), "web");
    }

    private Agent agent(String host, Path prefix, String role) throws Exception {
        return agent(new AgentOptions(host, prefix, Map.of("role", role), Duration.ofSeconds(2), 0.3, 4), Etcd.client(options()));
    }

    private Agent agent(AgentOptions options, Etcd client) throws Exception {
        Agent agent = new Agent(options, client, new CodecGraphDecoder(Kinds.installed()), new Metrics());
        opened.add(client);
        opened.add(agent);
        agent.start();
        return agent;
    }

    private Optional<KeyValue> get(ByteSequence key) throws Exception {
        return etcd.await(etcd.kv().get(key)).getKvs().stream().findFirst();
    }

    private HostStatus status(String host) throws Exception {
        Optional<KeyValue> kv = get(Keys.status(host));
        return kv.isEmpty() ? HostStatus.getDefaultInstance() : HostStatus.parseFrom(kv.get().getValue().getBytes());
    }

    private String twoFiles(String x) {
        return """
                resources:
                  - file:
                      - "%1$s/x": {content: "%2$s\\n"}
                      - "%1$s/y": {content: "same\\n"}
                  - exec:
                      - untouched: {command: "echo ran >> %1$s/runs", shell: true}
                """.formatted(dir, x);
    }

    private int bundles;

    private String deploy(String host, long deploy, String yaml) throws Exception {
        return deploy(host, deploy, yaml, Map.of());
    }

    /** Publishes {@code yaml} with bundle {@code files} (path → content) and points {@code host} at it. */
    private String deploy(String host, long deploy, String yaml, Map<String, String> files) throws Exception {
        Path bundle = dir.resolve("bundle-" + ++bundles);
        for (Map.Entry<String, String> file : files.entrySet()) {
            Files.createDirectories(bundle.resolve(file.getKey()).getParent());
            Files.writeString(bundle.resolve(file.getKey()), file.getValue());
        }
        String sha = Graphs.publish(etcd, host, bundle, yaml);
        Graphs.point(etcd, host, GraphPointer.newBuilder().setDeploy(deploy).setGraph(sha).build());
        return sha;
    }

    private void awaitConverged(String host, long deploy) {
        await().atMost(PATIENCE).until(() -> status(host).getConverged() && status(host).getDeploy() == deploy);
    }

    @Test
    void registersAliveAndFactsAndTheAliveKeyGoesWithTheAgent() throws Exception {
        Agent agent = agent("web1");
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).isPresent());
        assertThat(Alive.parseFrom(get(Keys.alive("web1")).orElseThrow().getValue().getBytes()).getStarted()).isPositive();
        Facts facts = Facts.parseFrom(get(Keys.facts("web1")).orElseThrow().getValue().getBytes());
        assertThat(facts.getFacts().getEntriesList()).extracting(Entry::getKey).contains("hostname", "os", "role");
        long factsVersion = get(Keys.facts("web1")).orElseThrow().getVersion();

        agent.close();

        assertThat(get(Keys.alive("web1"))).as("revoked as the agent stops").isEmpty();
        Agent again = agent("web1");
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).isPresent());
        assertThat(get(Keys.facts("web1")).orElseThrow().getVersion()).as("facts unchanged: not written again").isEqualTo(factsVersion);
        again.close();
    }

    @Test
    void aSecondAgentWithTheSameHostNameWaitsForTheFirstToGoInsteadOfTakingOverTheHost() throws Exception {
        Agent first = agent("web1");
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).isPresent() && get(Keys.status("web1")).isPresent());
        long lease = get(Keys.alive("web1")).orElseThrow().getLease();
        long factsRevision = get(Keys.facts("web1")).orElseThrow().getModRevision();
        long statusRevision = get(Keys.status("web1")).orElseThrow().getModRevision();

        Agent second = agent("web1", dir.resolve("prefix-second"), "db"); // a copied unit file, a typo'd --host
        await().during(Duration.ofSeconds(3)).atMost(PATIENCE).until(() -> get(Keys.alive("web1")).map(KeyValue::getLease).orElse(0L) == lease
                && get(Keys.facts("web1")).orElseThrow().getModRevision() == factsRevision
                && get(Keys.status("web1")).orElseThrow().getModRevision() == statusRevision);

        first.close(); // as after kill -9 once its lease expired: the second one takes the name
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).map(kv -> kv.getLease() != lease).orElse(false));
        assertThat(Facts.parseFrom(get(Keys.facts("web1")).orElseThrow().getValue().getBytes()).getFacts().getEntriesList())
                .filteredOn(e -> e.getKey().equals("role")).extracting(e -> e.getValue().getText()).containsExactly("db");
        second.close();
    }

    @Test
    void anAgentStartedAgainAfterAKillTakesItsNameBackAtOnceNotWhenItsOldLeaseExpires() throws Exception {
        AgentOptions options = new AgentOptions("web1", dir.resolve("prefix-web1"), Map.of("role", "web"), Duration.ofSeconds(60), 0.3, 4);
        Etcd killedClient = Etcd.client(options());
        Agent killed = agent(options, killedClient);
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).isPresent());
        long lease = get(Keys.alive("web1")).orElseThrow().getLease();
        killedClient.close(); // as kill -9: nothing revokes its lease, which would expire only in a minute
        killed.close();

        agent(options, Etcd.client(options()));
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).map(kv -> kv.getLease() != lease).orElse(false));
    }

    @Test
    void aLostLeaseIsGrantedAgainAndTheHostRegistersAgain() throws Exception {
        agent("web1");
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).isPresent());
        long lease = get(Keys.alive("web1")).orElseThrow().getLease();

        etcd.await(etcd.jetcd().getLeaseClient().revoke(lease)); // as if it expired while the agent was away

        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).map(kv -> kv.getLease() != lease).orElse(false));
    }

    @Test
    void aNewGraphIsSwappedInAndAnUnchangedResourceIsNotAppliedAgain() throws Exception {
        agent("web1");
        String first = deploy("web1", 1, twoFiles("one"));
        awaitConverged("web1", 1);
        assertThat(Files.readString(dir.resolve("x"))).isEqualTo("one\n");
        HostStatus status = status("web1");
        assertThat(status.getGraph()).isEqualTo(first);
        assertThat(status.getSummary().getTotal()).isEqualTo(3);
        assertThat(Files.readAllLines(dir.resolve("runs"))).hasSize(1);

        deploy("web1", 2, twoFiles("two"));

        awaitConverged("web1", 2);
        assertThat(Files.readString(dir.resolve("x"))).isEqualTo("two\n");
        assertThat(Files.readAllLines(dir.resolve("runs"))).as("the unchanged exec is not run again").hasSize(1);
        assertThat(status("web1").getFailedList()).isEmpty();
    }

    @Test
    void aDeployThatChangesNothingForTheHostIsReportedAsAppliedWithoutASwap() throws Exception {
        agent("web1");
        String graph = deploy("web1", 1, twoFiles("one"));
        awaitConverged("web1", 1);

        Graphs.point(etcd, "web1", GraphPointer.newBuilder().setDeploy(2).setGraph(graph).build());

        awaitConverged("web1", 2);
        assertThat(Files.readAllLines(dir.resolve("runs"))).hasSize(1);
    }

    @Test
    void aPointerWithACompileErrorKeepsTheGraphRunningAndReportsTheError() throws Exception {
        agent("web1");
        String first = deploy("web1", 1, twoFiles("one"));
        awaitConverged("web1", 1);

        Graphs.point(etcd, "web1", GraphPointer.newBuilder().setDeploy(2).setGraph(first)
                .setError("site.yaml:3:7: unknown kind 'fiel'").build());

        await().atMost(PATIENCE).until(() -> status("web1").getError().equals("site.yaml:3:7: unknown kind 'fiel'"));
        assertThat(status("web1").getDeploy()).isEqualTo(1);
        Files.delete(dir.resolve("x"));
        await().atMost(PATIENCE).until(() -> Files.exists(dir.resolve("x")));
    }

    @Test
    void aFailedResourceIsInTheStatusWithItsError() throws Exception {
        Files.writeString(dir.resolve("plain"), "a file, not a directory\n");
        agent("web1");
        deploy("web1", 1, """
                resources:
                  - file:
                      - "%s/plain/child": {content: "x"}
                """.formatted(dir));

        await().atMost(PATIENCE).until(() -> status("web1").getFailedCount() == 1);
        assertThat(status("web1").getFailed(0).getId()).isEqualTo("file#" + dir + "/plain/child");
        assertThat(status("web1").getFailed(0).getError()).isNotBlank();
        assertThat(status("web1").getSummary().getFailed()).isEqualTo(1);
    }

    /** Starts web1's agent, deploys two files and an exec to it, and waits until it converged: its status key's version then. */
    private long convergedOnAFirstDeploy() throws Exception {
        agent("web1");
        deploy("web1", 1, twoFiles("one"));
        awaitConverged("web1", 1);
        return get(Keys.status("web1")).orElseThrow().getVersion();
    }

    @Test
    void theStatusIsWrittenOnTransitionsNotOnEveryCheck() throws Exception {
        long version = convergedOnAFirstDeploy();

        for (int i = 0; i < 5; i++) Files.setLastModifiedTime(dir.resolve("y"), java.nio.file.attribute.FileTime.fromMillis(i * 1000L));
        Files.writeString(dir.resolve("x"), "drifted\n");
        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("x")).equals("one\n"));
        deploy("web1", 2, twoFiles("two"));
        awaitConverged("web1", 2);

        assertThat(get(Keys.status("web1")).orElseThrow().getVersion() - version)
                .as("the repair at most one write, the deploy one, not a write per check").isLessThanOrEqualTo(2);
    }

    @Test
    void aDriftRepairedIsWrittenToTheStatusOnceTheHostHasConvergedAgain() throws Exception {
        long version = convergedOnAFirstDeploy();
        long applies = status("web1").getSummary().getApplies();

        Files.writeString(dir.resolve("x"), "drifted\n");

        await().atMost(PATIENCE).until(() -> get(Keys.status("web1")).orElseThrow().getVersion() > version);
        HostStatus repaired = status("web1");
        assertThat(repaired.getConverged()).isTrue();
        assertThat(repaired.getSummary().getApplies()).isEqualTo(applies + 1);
        assertThat(Files.readString(dir.resolve("x"))).isEqualTo("one\n");
        assertThat(get(Keys.status("web1")).orElseThrow().getVersion()).as("one write, saying converged").isEqualTo(version + 1);
    }

    @Test
    void aDeployThatConvergesSoonIsOneStatusWriteSayingConverged() throws Exception {
        long version = convergedOnAFirstDeploy();

        deploy("web1", 2, twoFiles("two"));

        awaitConverged("web1", 2);
        assertThat(get(Keys.status("web1")).orElseThrow().getVersion()).as("no write saying it is at work").isEqualTo(version + 1);
    }

    @Test
    void aHostStillAtWorkAfterTheHoldSaysSo() throws Exception {
        convergedOnAFirstDeploy();

        deploy("web1", 2, """
                resources:
                  - exec:
                      - slow: {command: "sleep 8", shell: true}
                """);

        // written once the hold has passed, while the exec still runs
        await().atMost(StatusReporter.HOLD.plus(PATIENCE)).until(() -> status("web1").getDeploy() == 2 && !status("web1").getConverged());
    }

    @Test
    void theGraphKeptOnDiskIsEnforcedWhileEtcdIsDownAndTheAgentCatchesUpAfter() throws Exception {
        Agent first = agent("web1");
        deploy("web1", 1, twoFiles("one"));
        awaitConverged("web1", 1);
        first.close();

        local.kill();
        agent("web1");
        Files.writeString(dir.resolve("x"), "drifted\n");
        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("x")).equals("one\n"));

        local.start();
        deploy("web1", 2, twoFiles("two"));
        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("x")).equals("two\n"));
        awaitConverged("web1", 2);
        await().atMost(PATIENCE).until(() -> get(Keys.alive("web1")).isPresent());
    }

    @Test
    void theWatchSurvivesAnEtcdRestart() throws Exception {
        agent("web1");
        deploy("web1", 1, twoFiles("one"));
        awaitConverged("web1", 1);

        local.kill();
        local.start();
        deploy("web1", 2, twoFiles("two"));

        await().atMost(PATIENCE).until(() -> Files.readString(dir.resolve("x")).equals("two\n"));
        awaitConverged("web1", 2);
    }

    @Test
    void bundleFilesAreFetchedForTheGraph() throws Exception {
        agent("web1");
        deploy("web1", 1, """
                resources:
                  - file:
                      - "%s/motd": {source: files/motd}
                """.formatted(dir), Map.of("files/motd", "from the bundle\n"));

        awaitConverged("web1", 1);
        assertThat(Files.readString(dir.resolve("motd"))).isEqualTo("from the bundle\n");
    }

    @Test
    void aChangedSourceFileIsAppliedAndAnExecInTheBundleIsNotRunAgain() throws Exception {
        agent("web1");
        String site = """
                resources:
                  - file:
                      - "%1$s/motd": {source: files/motd}
                  - exec:
                      - in-bundle: {command: "pwd >> %1$s/runs", shell: true}
                """.formatted(dir);
        deploy("web1", 1, site, Map.of("files/motd", "first\n"));
        awaitConverged("web1", 1);
        assertThat(Files.readString(dir.resolve("motd"))).isEqualTo("first\n");

        deploy("web1", 2, site, Map.of("files/motd", "second\n"));

        awaitConverged("web1", 2);
        assertThat(Files.readString(dir.resolve("motd"))).as("the new content of the source").isEqualTo("second\n");
        assertThat(Files.readAllLines(dir.resolve("runs"))).as("an exec whose working directory is the bundle is the same resource")
                .hasSize(1);
    }

    @Test
    void aGraphThisHostCannotDecodeIsReportedAndTheRunningOneKept() throws Exception {
        agent("web1");
        String first = deploy("web1", 1, twoFiles("one"));
        awaitConverged("web1", 1);

        byte[] garbage = "not a graph".getBytes();
        String sha = io.muster.agent.etcd.ContentStore.sha256(garbage);
        new io.muster.agent.etcd.ContentStore(etcd).put(Keys.graph("web1", sha), garbage);
        Graphs.point(etcd, "web1", GraphPointer.newBuilder().setDeploy(2).setGraph(sha).build());

        await().atMost(PATIENCE).until(() -> status("web1").getError().startsWith("graph " + sha.substring(0, 12) + " of deploy 2 cannot run here: "));
        assertThat(status("web1").getGraph()).isEqualTo(first);
        assertThat(status("web1").getDeploy()).isEqualTo(1);
    }
}
