package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.Keys;
import io.muster.agent.testing.LocalEtcd;
import io.muster.engine.util.Json;
import io.muster.engine.exports.ExportedResource;
import io.muster.proto.fleet.Alive;
import io.muster.proto.fleet.Collected;
import io.muster.proto.fleet.Facts;
import io.muster.proto.fleet.Failure;
import io.muster.proto.fleet.GraphPointer;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Summary;
import io.muster.proto.value.Entry;
import io.muster.proto.value.Value;
import io.muster.proto.value.ValueMap;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LocalEtcd.class)
class FleetCommandsTest {
    @TempDir
    Path dir;

    private String endpoint;
    private String namespace;
    private Etcd etcd;

    @BeforeEach
    void fleet(LocalEtcd local) throws Exception {
        endpoint = local.endpoint();
        namespace = LocalEtcd.uniqueNamespace("cli");
        etcd = Etcd.connect(EtcdOptions.of(endpoint, namespace, Duration.ofSeconds(5)));
        Files.writeString(dir.resolve("site.yaml"), "resources:\n  - file: {name: /tmp/muster-cli-fleet-test, content: \"hi\\n\"}\n");
    }

    @AfterEach
    void close() {
        etcd.close();
    }

    private Cli muster(Object... args) {
        Object[] all = new Object[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--etcd";
        all[args.length + 1] = endpoint;
        all[args.length + 2] = "--namespace";
        all[args.length + 3] = namespace;
        return Cli.run(all);
    }

    private void alive(String host) throws Exception {
        etcd.await(etcd.kv().put(Keys.alive(host), ByteSequence.from(Alive.newBuilder().setVersion("test").build().toByteArray())));
    }

    private void facts(String host, String role) throws Exception {
        ValueMap facts = ValueMap.newBuilder().addEntries(Entry.newBuilder().setKey("role").setValue(Value.newBuilder().setText(role))).build();
        etcd.await(etcd.kv().put(Keys.facts(host), ByteSequence.from(Facts.newBuilder().setFacts(facts).build().toByteArray())));
    }

    private void report(String host, HostStatus status) throws Exception {
        etcd.await(etcd.kv().put(Keys.status(host), ByteSequence.from(status.toByteArray())));
    }

    @Test
    void anUnreachableEtcdIsOneLineAndExit1WithinTheConnectTimeout() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        String[][] commands = {{"deploy", dir.toString()}, {"deploys"}, {"status"}, {"rollback"}, {"coordinator"}};
        for (String[] command : commands) {
            long start = System.nanoTime();
            Object[] args = List.of(command, new String[] {"--etcd", "127.0.0.1:" + closed, "--connect-timeout", "2"}).stream()
                    .flatMap(a -> java.util.Arrays.stream(a)).toArray();
            Cli cli = Cli.run(args);
            assertThat(cli.exit()).as(command[0]).isEqualTo(1);
            assertThat(cli.err()).as(command[0]).startsWith("muster: cannot reach etcd at http://127.0.0.1:" + closed + ": ")
                    .satisfies(err -> assertThat(err.strip()).doesNotContain("\n"));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as(command[0]).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void deployPrintsIdsInOrderAndDeploysListsThem() {
        Cli first = muster("deploy", dir, "--message", "first");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo("1\n");
        assertThat(muster("deploy", dir.resolve("site.yaml")).out()).isEqualTo("2\n");

        Cli deploys = muster("deploys");
        assertThat(deploys.out().lines().toList()).hasSize(2);
        assertThat(deploys.out().lines().toList().getFirst()).startsWith("  1  ").endsWith("first");
        assertThat(deploys.out().lines().toList().getLast()).startsWith("* 2  ").contains("@");
        String history = muster("deploys", "--output", "json").out();
        ReportSchema.assertValid(history);
        Map<?, ?> json = (Map<?, ?>) Json.parse(history);
        assertThat(json.get("current")).isEqualTo(2L);
        assertThat((List<?>) json.get("deploys")).hasSize(2);

        Cli rollback = muster("rollback");
        assertThat(rollback.exit()).isZero();
        assertThat(rollback.out()).isEqualTo("rolled back from deploy 2 to 1\n");
        assertThat(muster("rollback").err()).isEqualTo("muster: nothing to roll back to: deploy 1 is the first\n");
        assertThat(muster("rollback", "--to", "2").out()).isEqualTo("rolled back from deploy 1 to 2\n");
        assertThat(muster("rollback", "--to", "9").exit()).isEqualTo(1);
        String deploy = muster("deploy", dir, "--output", "json").out();
        assertThat(deploy).contains("\"deploy\": 3");
        ReportSchema.assertValid(deploy);
    }

    @Test
    void badInputIsAClearErrorAndPublishesNothing() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        Cli noManifest = muster("deploy", empty);
        assertThat(noManifest.exit()).isEqualTo(1);
        assertThat(noManifest.err()).isEqualTo("muster: " + empty + ": no site.yaml in this directory (name the root manifest: muster deploy "
                + empty + "/FILE.yaml)\n");

        Path broken = Files.createDirectories(dir.resolve("broken"));
        Files.writeString(broken.resolve("site.yaml"), "resources:\n  - file: {name: /tmp/x, mdoe: \"0644\"}\n");
        Cli refused = muster("deploy", broken);
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).startsWith(broken.toRealPath().resolve("site.yaml") + ":2:").contains("unknown property 'mdoe'")
                .contains("muster: not deployed: ");
        assertThat(muster("deploy", dir, "--max-bundle", "10").err()).contains("over --max-bundle (10 bytes)");
        assertThat(muster("deploys").out()).isEqualTo("no deploys\n");

        assertThat(muster("deploy", dir, "--max-bundle", "lots").exit()).isEqualTo(Main.USAGE);
        assertThat(muster("status", "--host", "a b").exit()).isEqualTo(Main.USAGE);
        assertThat(muster("status", "--host", "nobody").err()).isEqualTo("muster: no host nobody in the fleet\n");
        assertThat(muster("rollback", "--to", "0").exit()).isEqualTo(Main.USAGE);
        assertThat(Cli.run("status", "--etcd", "ftp://x:1").exit()).isEqualTo(Main.USAGE);
        assertThat(muster("deploy", dir, "--timeout", "0").exit()).isEqualTo(Main.USAGE);
        Cli ttl = muster("coordinator", "--lease-ttl", "0");
        assertThat(ttl.exit()).isEqualTo(Main.USAGE);
        assertThat(ttl.err()).startsWith("muster: --lease-ttl: expected at least 1 second");
    }

    @Test
    void aManifestIsValidatedWithTheFactsOfLiveHostsAndRefusedWhenItFailsForOne() throws Exception {
        Path roles = Files.createDirectories(dir.resolve("roles"));
        Files.writeString(roles.resolve("site.yaml"), "data:\n  ports: {web: 80}\nresources:\n"
                + "  - file: {name: /tmp/muster-cli-fleet-test, content: \"${ data.ports[facts.role] }\"}\n");
        Cli noHosts = muster("deploy", roles);
        assertThat(noHosts.exit()).as("compiled for this host, which has no role fact").isEqualTo(1);
        assertThat(noHosts.err()).contains("facts.role").contains("does not compile for ");

        alive("db1");
        facts("db1", "db");
        Cli failsEverywhere = muster("deploy", roles);
        assertThat(failsEverywhere.exit()).isEqualTo(1);
        assertThat(failsEverywhere.err()).endsWith("does not compile for db1\n");

        alive("web1");
        facts("web1", "web");
        Cli oneOfTwo = muster("deploy", roles);
        assertThat(oneOfTwo.exit()).as("a deploy that would break a live host").isEqualTo(1);
        assertThat(oneOfTwo.err()).contains("data.ports.db").contains("does not compile for db1 (one of the 2 live hosts");

        Files.writeString(roles.resolve("site.yaml"), Files.readString(roles.resolve("site.yaml")).replace("{web: 80}", "{web: 80, db: 5432}"));
        Cli everywhere = muster("deploy", roles);
        assertThat(everywhere.exit()).as(everywhere.err()).isZero();
        assertThat(everywhere.out()).isEqualTo("1\n");
    }

    @Test
    void statusShowsEachHostAsJson() throws Exception {
        muster("deploy", dir);
        alive("web1");
        report("web1", HostStatus.newBuilder().setDeploy(1).setGraph("abc").setConverged(true).setUpdated(1_700_000_000_000L)
                .setSummary(Summary.newBuilder().setTotal(3).setChanged(1).setStable(1).setFailed(1))
                .addFailed(Failure.newBuilder().setId("file#/x").setError("permission denied")).build());
        etcd.await(etcd.kv().put(Keys.graphPointer("db1"), ByteSequence.from(GraphPointer.newBuilder().setDeploy(1)
                .setError("site.yaml:3:5: file#/y: unknown name 'facts.role'").build().toByteArray())));

        Cli status = muster("status", "--output", "json");
        assertThat(status.exit()).isZero();
        ReportSchema.assertValid(status.out());
        Map<?, ?> doc = (Map<?, ?>) Json.parse(status.out());
        assertThat(List.copyOf(doc.keySet())).isEqualTo(List.of("schema", "current_deploy", "hosts", "rollout"));
        assertThat(doc.get("current_deploy")).isEqualTo(1L);
        List<?> hosts = (List<?>) doc.get("hosts");
        Map<?, ?> db1 = (Map<?, ?>) hosts.get(0);
        Map<?, ?> web1 = (Map<?, ?>) hosts.get(1);
        assertThat(List.copyOf(web1.keySet())).isEqualTo(List.of("host", "alive", "deploy", "graph", "converged", "summary", "failed", "error", "updated",
                "collected", "exports"));
        assertThat(web1.get("host")).isEqualTo("web1");
        assertThat(web1.get("alive")).isEqualTo(true);
        assertThat(web1.get("deploy")).isEqualTo(1L);
        assertThat(web1.get("converged")).isEqualTo(true);
        assertThat(((Map<?, ?>) web1.get("summary")).get("changed")).isEqualTo(1L);
        assertThat(web1.get("failed")).isEqualTo(List.of(Map.of("id", "file#/x", "error", "permission denied")));
        assertThat(web1.get("updated")).isEqualTo("2023-11-14T22:13:20Z");
        assertThat(db1.get("alive")).isEqualTo(false);
        assertThat(db1.get("deploy")).isNull();
        assertThat(db1.get("error")).isEqualTo("site.yaml:3:5: file#/y: unknown name 'facts.role'");

        Cli text = muster("status");
        assertThat(text.out()).startsWith("current deploy: 1\nHOST").contains("  failed file#/x: permission denied\n")
                .contains("  error: site.yaml:3:5:");
        assertThat(muster("status", "--host", "web1", "--output", "json").out()).contains("\"web1\"").doesNotContain("db1");
    }

    @Test
    void deployWaitSucceedsOnlyWhenEveryLiveHostConvergedOnIt() throws Exception {
        Cli nobody = muster("deploy", dir, "--wait", "--timeout", "30");
        assertThat(nobody.exit()).isZero();
        assertThat(nobody.err()).isEqualTo("muster: deploy 1: no live hosts to wait for\n");
        alive("h1");
        CompletableFuture<Cli> waiting = CompletableFuture.supplyAsync(() -> muster("deploy", dir, "--wait", "--timeout", "30"));
        await().atMost(Duration.ofSeconds(20)).until(() -> muster("deploys").out().contains("* 2"));
        report("h1", HostStatus.newBuilder().setDeploy(2).setConverged(true).build());
        Cli done = waiting.get();
        assertThat(done.exit()).as(done.err()).isZero();
        assertThat(done.out()).isEqualTo("2\nh1: converged\n");

        alive("h2");
        report("h2", HostStatus.newBuilder().setDeploy(2).setConverged(true)
                .addFailed(Failure.newBuilder().setId("exec#x").setError("exit 3")).build());
        waiting = CompletableFuture.supplyAsync(() -> muster("deploy", dir, "--wait", "--timeout", "30"));
        await().atMost(Duration.ofSeconds(20)).until(() -> muster("deploys").out().contains("* 3"));
        report("h1", HostStatus.newBuilder().setDeploy(3).setConverged(true).build());
        report("h2", HostStatus.newBuilder().setDeploy(3).setConverged(true)
                .addFailed(Failure.newBuilder().setId("exec#x").setError("exit 3")).build());
        Cli failed = waiting.get();
        assertThat(failed.exit()).isEqualTo(2);
        assertThat(failed.out()).isEqualTo("3\nh1: converged\nh2: failed\n  exec#x: exit 3\n");
        assertThat(failed.err()).contains("h2: failed").endsWith("1 of 2 live hosts failed or did not converge within 30 s: h2\n");

        waiting = CompletableFuture.supplyAsync(() -> muster("deploy", dir, "--wait", "--timeout", "30"));
        await().atMost(Duration.ofSeconds(20)).until(() -> muster("deploys").out().contains("* 4"));
        assertThat(muster("rollback").out()).isEqualTo("rolled back from deploy 4 to 3\n");
        Cli superseded = waiting.get();
        assertThat(superseded.exit()).isEqualTo(2);
        assertThat(superseded.err()).endsWith("muster: deploy 4 is no longer current: deploy 3 was made current while waiting\n");

        Cli late = muster("deploy", dir, "--wait", "--timeout", "0.5");
        assertThat(late.exit()).isEqualTo(2);
        assertThat(late.out()).isEqualTo("5\nh1: not converged (still on deploy 3)\nh2: not converged (still on deploy 3)\n");
        assertThat(late.err()).endsWith("within 0.5 s: h1, h2\n");
    }

    @Test
    void statusIndentsEachLineOfAnErrorUnderItsHost() throws Exception {
        muster("deploy", dir);
        etcd.await(etcd.kv().put(Keys.graphPointer("web1"), ByteSequence.from(GraphPointer.newBuilder().setDeploy(1)
                .setError("roles/base.yaml:2:3: data: unknown name 'facts.id'\nroles/web.yaml:2:3: data: unknown name 'facts.id'")
                .build().toByteArray())));
        assertThat(muster("status").out()).endsWith("""
                  error: roles/base.yaml:2:3: data: unknown name 'facts.id'
                         roles/web.yaml:2:3: data: unknown name 'facts.id'
                """);
    }

    @Test
    void deployWaitDoesNotCallAHostFailedWhileItIsStillApplyingTheDeploy() throws Exception {
        alive("h1");
        CompletableFuture<Cli> waiting = CompletableFuture.supplyAsync(() -> muster("deploy", dir, "--wait", "--timeout", "30"));
        await().atMost(Duration.ofSeconds(20)).until(() -> muster("deploys").out().contains("* 1"));
        // just swapped in: an unchanged apply resource still carries its child's failure from the previous graph
        report("h1", HostStatus.newBuilder().setDeploy(1).setConverged(false)
                .addFailed(Failure.newBuilder().setId("apply#a.yaml").setError("child manifest had 1 failed resources")).build());
        await().atMost(Duration.ofSeconds(20)).until(() -> muster("status", "--host", "h1").out().contains("apply#a.yaml"));
        report("h1", HostStatus.newBuilder().setDeploy(1).setConverged(true).build());
        Cli done = waiting.get();
        assertThat(done.exit()).as(done.err()).isZero();
        assertThat(done.out()).isEqualTo("1\nh1: converged\n");
        assertThat(done.err()).doesNotContain("failed");
    }

    @Test
    void deployWaitSaysAHostThatRanNoDeployYetHasNone() throws Exception {
        alive("h1");
        report("h1", HostStatus.newBuilder().build());
        Cli late = muster("deploy", dir, "--wait", "--timeout", "0.5");
        assertThat(late.exit()).isEqualTo(2);
        assertThat(late.out()).isEqualTo("1\nh1: not converged (no deploy applied yet)\n");
    }

    @Test
    void exportsShowsWhatEachHostExportsAndWhoCollectedOrRejectedIt() throws Exception {
        assertThat(muster("exports").out()).isEqualTo("no exports\n");
        String backend = new ExportedResource("file", "backend", Map.of("path", "/etc/lb/web1", "content", "server web1\n"),
                List.of("pool"), List.of()).encode();
        etcd.await(etcd.kv().put(Keys.exported("file", "web1", "backend"), ByteSequence.from(backend, StandardCharsets.UTF_8)));
        String cron = new ExportedResource("file", "/etc/cron.d/x", Map.of("path", "/etc/cron.d/x"), List.of("pool"), List.of("lb*")).encode();
        etcd.await(etcd.kv().put(Keys.exported("file", "rogue1", "/etc/cron.d/x"), ByteSequence.from(cron, StandardCharsets.UTF_8)));
        report("lb1", HostStatus.newBuilder().setDeploy(1).setConverged(true)
                .addCollected(Collected.newBuilder().setKind("file").setExporter("web1").setName("backend").setId("file#backend@web1"))
                .addCollected(Collected.newBuilder().setKind("file").setExporter("rogue1").setName("/etc/cron.d/x").setId("file#/etc/cron.d/x@rogue1")
                        .setRejected("/etc/cron.d/x is outside allow.paths [/etc/lb] (collect at lb.yaml:3:5)"))
                .build());

        Cli text = muster("exports", "--kind", "file");
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).isEqualTo("""
                KIND  EXPORTER  NAME           TO        TAGS  COLLECTED BY
                file  rogue1    /etc/cron.d/x  lb*       pool  -
                  rejected by lb1: /etc/cron.d/x is outside allow.paths [/etc/lb] (collect at lb.yaml:3:5)
                file  web1      backend        any host  pool  lb1
                """);
        assertThat(muster("exports", "--kind", "exec").out()).isEqualTo("no exports\n");

        String json = muster("exports", "--output", "json").out();
        ReportSchema.assertValid(json);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) ((Map<String, Object>) Json.parse(json)).get("exports");
        assertThat(rows.get(1)).containsEntry("exporter", "web1").containsEntry("collected_by", List.of("lb1"))
                .containsEntry("params", Map.of("path", "/etc/lb/web1", "content", "server web1\n"));
        assertThat(rows.get(0)).containsEntry("rejected_by", List.of(Map.of("host", "lb1",
                "why", "/etc/cron.d/x is outside allow.paths [/etc/lb] (collect at lb.yaml:3:5)")));

        alive("web1");
        assertThat(muster("status").out()).contains("web1").contains("  exports file#backend\n").contains("""
                  collected 1 export
                  rejected file#/etc/cron.d/x@rogue1: /etc/cron.d/x is outside allow.paths [/etc/lb] (collect at lb.yaml:3:5)
                """);
    }

    @Test
    void planOnACollectorShowsWhatItWouldCollectFromTheFleetAndSaysSoWithoutOne() throws Exception {
        Path pool = dir.resolve("pool");
        Path lb = Files.writeString(dir.resolve("lb.yaml"), """
                resources:
                  - file: [{POOL: {ensure: directory}}]
                collect:
                  - {kind: file, tags: [pool], allow: {paths: [POOL]}}
                """.replace("POOL", pool.toString()));
        String backend = new ExportedResource("file", "backend", Map.of("path", pool.resolve("web1").toString(), "content", "server web1\n"),
                List.of("pool"), List.of()).encode();
        long lease = etcd.await(etcd.jetcd().getLeaseClient().grant(60)).getID();
        etcd.await(etcd.kv().put(Keys.exported("file", "web1", "backend"), ByteSequence.from(backend, StandardCharsets.UTF_8),
                PutOption.builder().withLeaseId(lease).build()));
        String unbound = new ExportedResource("file", "unbound", Map.of("path", pool.resolve("web2").toString(), "content", "server web2\n"),
                List.of("pool"), List.of()).encode();
        etcd.await(etcd.kv().put(Keys.exported("file", "web2", "unbound"), ByteSequence.from(unbound, StandardCharsets.UTF_8)));

        Cli alone = Cli.run("plan", lb);
        assertThat(alone.err()).contains("collect: no fleet given (--etcd, $MUSTER_ETCD): nothing collected");
        assertThat(alone.exit()).as(alone.err()).isEqualTo(2); // the pool directory, and nothing collected
        assertThat(alone.out()).doesNotContain("file#backend@web1");

        Cli planned = muster("plan", lb);
        assertThat(planned.exit()).as(planned.err()).isEqualTo(2);
        assertThat(planned.out()).contains("file#backend@web1").contains("+server web1");
        assertThat(planned.out()).as("an export bound to no lease, which would outlive its host").doesNotContain("unbound");
        assertThat(pool).doesNotExist();

        for (Cli asWeb1 : List.of(muster("plan", lb, "--host", "web1"), muster("plan", lb, "--fact", "fqdn=web1"))) {
            assertThat(asWeb1.exit()).as(asWeb1.err()).isEqualTo(2);
            assertThat(asWeb1.out()).as("a host never collects its own export").doesNotContain("file#backend@web1");
        }
        Cli badHost = muster("plan", lb, "--host", "web1/x");
        assertThat(badHost.exit()).isEqualTo(64);
        assertThat(badHost.err()).contains("--host: ");
    }

    @Test
    void statusShowsAHostWhoseStatusIsUnreadableWithThatErrorAndTheOthersAsUsual() throws Exception {
        alive("web1");
        alive("web2");
        report("web1", HostStatus.newBuilder().setDeploy(1).setConverged(true).build());
        etcd.await(etcd.kv().put(Keys.status("web2"), ByteSequence.from(new byte[] {1})));
        Cli status = muster("status");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out()).contains("web1 ").contains("error: hosts/web2/status: not what muster stores there");
    }
}
