package io.muster.cli;

import io.muster.agent.testing.LocalEtcd;
import io.muster.engine.util.FileTrees;
import io.muster.engine.util.Json;
import java.io.IOException;
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
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fleet as a user runs it: a real etcd, a coordinator and three agents as separate muster processes with
 * their own host names and facts, and the CLI's deploy, status, deploys and rollback against them.
 */
@ExtendWith(LocalEtcd.class)
class FleetEndToEndTest {
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final List<String> HOSTS = List.of("web1", "web2", "db1");

    @TempDir
    Path dir;
    private LocalEtcd etcd;
    private String namespace;
    private final List<MusterProcess> daemons = new ArrayList<>();
    private Path bundle;

    @BeforeEach
    void fleet(LocalEtcd etcd) throws IOException {
        this.etcd = etcd;
        this.namespace = LocalEtcd.uniqueNamespace("fleet");
        bundle = Files.createDirectories(dir.resolve("site"));
        Files.writeString(bundle.resolve("site.yaml"), """
                nodes:
                  "web*": [web.yaml]
                  "/db[0-9]+/": [db.yaml]
                resources:
                  - file:
                      - "${ facts.root }/common": {content: "every host\\n"}
                  - exec:
                      - script: {command: "./bin/hello.sh > ${ facts.root }/hello", shell: true, creates: "${ facts.root }/hello"}
                """);
        Path script = Files.createDirectories(bundle.resolve("bin")).resolve("hello.sh");
        Files.writeString(script, "#!/bin/sh\necho hello from the bundle\n");
        script.toFile().setExecutable(true);
        Files.writeString(bundle.resolve("web.yaml"), web("v1"));
        Files.writeString(bundle.resolve("db.yaml"), """
                resources:
                  - file:
                      - "${ facts.root }/role": {content: "db\\n"}
                      - "${ facts.root }/db.yml": {source: conf/db.yml}
                """);
        Files.writeString(Files.createDirectories(bundle.resolve("conf")).resolve("db.yml"), "port: 5432\n");
    }

    private static String web(String version) {
        return """
                resources:
                  - file:
                      - "${ facts.root }/role": {content: "web %s\\n"}
                """.formatted(version);
    }

    @AfterEach
    void stop() throws Exception {
        for (MusterProcess p : daemons) p.close();
        daemons.clear();
    }

    private Object[] fleetFlags(Object... args) {
        List<Object> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--etcd", etcd.endpoint(), "--namespace", namespace));
        return all.toArray();
    }

    /**
     * A daemon, given time to reach etcd: its first gRPC connection, in a JVM starting beside others on a loaded
     * 2-core machine, can take longer than the default 5 s, and a daemon that finds no etcd at start exits.
     */
    private MusterProcess daemon(String name, Object... args) throws IOException {
        List<Object> patient = new ArrayList<>(List.of(args));
        patient.addAll(List.of("--connect-timeout", "30"));
        MusterProcess p = MusterProcess.start(dir, name, fleetFlags(patient.toArray()));
        daemons.add(p);
        return p;
    }

    private MusterProcess agent(String host) throws IOException {
        Path root = Files.createDirectories(dir.resolve("hosts").resolve(host));
        return daemon("agent-" + host, "agent", "--host", host, "--prefix", dir.resolve("prefix-" + host),
                "--fact", "root=" + root, "--lease-ttl", "2");
    }

    /** Starts the agents and waits until etcd knows them all: a deploy is checked against the live hosts' facts. */
    private void agents() throws IOException {
        for (String host : HOSTS) agent(host);
        awaitAlive(HOSTS.size());
    }

    private void awaitAlive(int count) {
        await().atMost(PATIENCE).untilAsserted(() -> {
            Cli status = muster("status", "--output", "json");
            assertThat(status.exit()).as(status.err()).isZero();
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> hosts = (List<Map<String, Object>>) ((Map<String, Object>) Json.parse(status.out())).get("hosts");
            assertThat(hosts).as(() -> "daemons' stderr:\n" + String.join("\n", daemons.stream().map(MusterProcess::err).toList()))
                    .filteredOn(h -> Boolean.TRUE.equals(h.get("alive"))).hasSize(count);
        });
    }

    private Path file(String host, String name) {
        return dir.resolve("hosts").resolve(host).resolve(name);
    }

    private Cli muster(Object... args) {
        return Cli.run(fleetFlags(args));
    }

    @Test
    void deployReachesEveryHostAsItsNodesSectionSaysAndRollbackUndoesAChange() throws Exception {
        daemon("coordinator", "coordinator", "--lease-ttl", "2", "--prefix", dir.resolve("coordinator"));
        agents();

        Cli first = muster("deploy", bundle, "--message", "first", "--wait", "--timeout", "60");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("1");
        for (String host : HOSTS) {
            assertThat(file(host, "common")).hasContent("every host");
            assertThat(file(host, "hello")).as("a script of the bundle, run where the agent laid it out, executable").hasContent("hello from the bundle");
        }
        assertThat(file("web1", "role")).hasContent("web v1");
        assertThat(file("web2", "role")).hasContent("web v1");
        assertThat(file("db1", "role")).hasContent("db");
        assertThat(file("db1", "db.yml")).as("a YAML file a graph names as a source reaches its host").hasContent("port: 5432");
        for (String host : HOSTS) {
            Path laidOut = dir.resolve("prefix-" + host).resolve("agent/bundle");
            assertThat(laidOut.resolve("bin/hello.sh")).exists();
            for (String manifest : List.of("site.yaml", "web.yaml", "db.yaml")) {
                assertThat(laidOut.resolve(manifest)).as("%s's bundle has no manifest: they hold every host's data", host).doesNotExist();
            }
            assertThat(Files.exists(laidOut.resolve("conf/db.yml"))).as(host + " has the source its graph names").isEqualTo(host.equals("db1"));
        }

        Cli status = muster("status", "--output", "json");
        assertThat(status.exit()).as(status.err()).isZero();
        ReportSchema.assertValid(status.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) Json.parse(status.out());
        assertThat(json).containsEntry("current_deploy", 1L);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> hosts = (List<Map<String, Object>>) json.get("hosts");
        assertThat(hosts).extracting(h -> h.get("host")).containsExactlyInAnyOrderElementsOf(HOSTS);
        assertThat(hosts).allSatisfy(h -> {
            assertThat(h).containsEntry("alive", true).containsEntry("deploy", 1L).containsEntry("converged", true);
            assertThat((List<?>) h.get("failed")).isEmpty();
        });

        long dbRoleModified = Files.getLastModifiedTime(file("db1", "role")).toMillis();
        Files.writeString(bundle.resolve("web.yaml"), web("v2"));
        Cli second = muster("deploy", bundle, "--message", "web v2", "--wait", "--timeout", "60");
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(file("web1", "role")).hasContent("web v2");
        assertThat(Files.getLastModifiedTime(file("db1", "role")).toMillis()).as("a host whose graph did not change is not disturbed")
                .isEqualTo(dbRoleModified);

        Cli history = muster("deploys");
        assertThat(history.out()).contains("first").contains("web v2");

        Cli rollback = muster("rollback");
        assertThat(rollback.exit()).as(rollback.err()).isZero();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(file("web2", "role")).hasContent("web v1"));
        assertThat(((Map<?, ?>) Json.parse(muster("status", "--output", "json").out())).get("current_deploy")).isEqualTo(1L);
    }

    @Test
    void theFleetExampleConvergesAsTheReadmeSays() throws Exception {
        Path example = Path.of(System.getProperty("user.dir")).getParent().resolve("examples/fleet");
        List<String> hosts = List.of("web1.example.com", "db-1.example.com", "mail.example.com", "lb1.example.com");
        daemon("coordinator", "coordinator", "--lease-ttl", "2", "--prefix", dir.resolve("coordinator"));
        for (String host : hosts) daemon("agent-" + host, "agent", "--host", host, "--prefix", dir.resolve("prefix-" + host), "--lease-ttl", "2");
        awaitAlive(hosts.size());
        try {
            Cli deploy = muster("deploy", example, "--message", "first", "--wait", "--timeout", "60");
            assertThat(deploy.exit()).as(deploy.err()).isZero();
            Path web = Path.of("/tmp/muster-fleet-web1.example.com");
            Path db = Path.of("/tmp/muster-fleet-db-1.example.com");
            Path mail = Path.of("/tmp/muster-fleet-mail.example.com");
            assertThat(web.resolve("motd")).hasContent("web1.example.com is managed by muster");
            assertThat(web.resolve("web.conf")).as("web1's port, from the hierarchy").hasContent("listen 8081");
            assertThat(db.resolve("db.conf")).hasContent("max_connections = 100");
            assertThat(mail.resolve("motd")).exists();
            assertThat(mail.resolve("web.conf")).doesNotExist();
            await().atMost(PATIENCE).untilAsserted(() -> assertThat(Path.of("/tmp/muster-fleet-lb/backends/web1.example.com"))
                    .as("web1's export, collected by lb1").hasContent("server web1.example.com:8081"));
        } finally {
            stop(); // first the agents, which would repair what is deleted
            for (String host : hosts) FileTrees.delete(Path.of("/tmp/muster-fleet-" + host));
            FileTrees.delete(Path.of("/tmp/muster-fleet-lb"));
        }
    }

    @Test
    void aManifestThatDoesNotCompileIsRefusedAndNothingIsPublished() throws Exception {
        agents();
        Files.writeString(bundle.resolve("web.yaml"), "resources:\n  - file:\n      - /x: {mdoe: 1}\n");
        Cli refused = muster("deploy", bundle);
        assertThat(refused.exit()).isNotZero();
        assertThat(refused.err()).contains("web.yaml:3:").contains("mdoe");
        assertThat(((Map<?, ?>) Json.parse(muster("status", "--output", "json").out())).get("current_deploy")).as("nothing published").isNull();
    }

    @Test
    void anUnreachableEtcdIsOneLineAndExitOne() {
        Cli status = Cli.run("status", "--etcd", "http://127.0.0.1:1", "--connect-timeout", "1");
        assertThat(status.exit()).isEqualTo(1);
        assertThat(status.err().strip()).doesNotContain("\n").contains("127.0.0.1:1").doesNotContain("Exception");
    }

    @Test
    void theFleetSurvivesKillingEtcdAnAgentAndTheLeadingCoordinator() throws Exception {
        MusterProcess leader = daemon("coordinator-a", "coordinator", "--lease-ttl", "2", "--prefix", dir.resolve("coordinator-a"));
        daemon("coordinator-b", "coordinator", "--lease-ttl", "2", "--prefix", dir.resolve("coordinator-b"));
        agents();
        assertThat(muster("deploy", bundle, "--wait", "--timeout", "60").exit()).isZero();

        etcd.kill();
        try {
            Files.writeString(file("web1", "role"), "drifted\n");
            await().atMost(PATIENCE).untilAsserted(() -> assertThat(file("web1", "role")).as("drift repaired while etcd is away").hasContent("web v1"));
        } finally {
            etcd.start();
        }

        leader.kill(); // may not be the leader: then the other one dies, and the survivor must take over either way
        daemons.get(daemons.indexOf(leader)).close();
        Files.writeString(bundle.resolve("web.yaml"), web("v3"));
        Cli third = muster("deploy", bundle, "--wait", "--timeout", "60");
        assertThat(third.exit()).as(third.err()).isZero();
        assertThat(third.out()).contains("2");
        assertThat(file("web2", "role")).hasContent("web v3");
    }

    @Test
    void aBalancerCollectsTheBackendEveryWebHostExportsAndAKilledWebHostLeavesItsPool() throws Exception {
        Path pool = Files.createDirectories(dir.resolve("hosts/lb1")).resolve("pool");
        Files.writeString(bundle.resolve("site.yaml"), """
                nodes:
                  "web*": [web.yaml]
                  "lb*": [lb.yaml]
                """);
        Files.writeString(bundle.resolve("web.yaml"), """
                resources:
                  - exec: [{port: {command: "echo 8080"}}]
                  - file:
                      - backend:
                          path: "POOL/${ facts.hostname }"
                          content: "server ${ facts.hostname } :${ lookup('exec#port.stdout') }\\n"
                          meta: {export: {to: ["lb*"], tags: [pool]}}
                """.replace("POOL", pool.toString()));
        Files.writeString(bundle.resolve("lb.yaml"), """
                resources:
                  - file: [{POOL: {ensure: directory}}]
                collect:
                  - {kind: file, tags: [pool], from: ["web*"], allow: {paths: [POOL]}, meta: {reverse: true}}
                """.replace("POOL", pool.toString()));
        daemon("coordinator", "coordinator", "--lease-ttl", "2", "--prefix", dir.resolve("coordinator"));
        MusterProcess web2 = null;
        for (String host : List.of("lb1", "web1", "web2")) {
            MusterProcess p = daemon("agent-" + host, "agent", "--host", host, "--prefix", dir.resolve("prefix-" + host),
                    "--fact", "hostname=" + host, "--lease-ttl", "2");
            if (host.equals("web2")) web2 = p;
        }
        awaitAlive(3);

        Cli deploy = muster("deploy", bundle, "--wait", "--timeout", "60");
        assertThat(deploy.exit()).as(deploy.err()).isZero();
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(pool.resolve("web1")).hasContent("server web1 :8080");
            assertThat(pool.resolve("web2")).hasContent("server web2 :8080");
        });
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(muster("exports").out()).contains("""
                KIND  EXPORTER  NAME     TO   TAGS  COLLECTED BY
                file  web1      backend  lb*  pool  lb1
                file  web2      backend  lb*  pool  lb1
                """));

        web2.kill();
        long killed = System.nanoTime();
        await().atMost(PATIENCE).until(() -> !Files.exists(pool.resolve("web2")));
        assertThat(Duration.ofNanos(System.nanoTime() - killed)).as("within its lease TTL + 2 s").isLessThanOrEqualTo(Duration.ofMillis(4500));
        assertThat(pool.resolve("web1")).exists();
    }
}
