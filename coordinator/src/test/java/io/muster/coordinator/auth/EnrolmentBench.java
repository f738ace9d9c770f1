package io.muster.coordinator.auth;

import io.etcd.jetcd.ByteSequence;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdTls;
import io.muster.agent.etcd.Keys;
import io.muster.agent.pki.FleetCa;
import io.muster.agent.testing.LocalEtcd;
import io.muster.engine.resource.Kinds;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * How long enrolling N hosts (user, role, grants) takes against a real etcd with TLS and auth, by batches of a
 * tenth, and what one role change costs once N hosts are enrolled (etcd 3.4 rebuilds its permission cache on
 * each). A test-scope main: see the Security section of the README for the command.
 */
public final class EnrolmentBench {
    private EnrolmentBench() {}

    public static void main(String[] args) throws Exception {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        Path pki = Files.createTempDirectory("muster-enrol-");
        FleetCa ca = FleetCa.openOrCreate(pki);
        ca.server(List.of("127.0.0.1")).write(pki, "etcd");
        ca.client(FleetAuth.ROOT).write(pki, "root");
        ca.client(FleetAuth.hostUser("h1")).write(pki, "h1");
        List<String> kinds = List.copyOf(Kinds.installed().names());
        try (LocalEtcd etcd = LocalEtcd.startSecured(pki.resolve("etcd.crt"), pki.resolve("etcd.key"), pki.resolve("ca.crt"));
             Etcd root = client(etcd, pki, "root");
             Etcd h1 = client(etcd, pki, "h1")) {
            FleetAuth auth = new FleetAuth(root);
            auth.setUp();
            System.out.printf(Locale.ROOT, "%d hosts, %d kinds each (%s)%n", hosts, kinds.size(), String.join(",", kinds));
            auth.addHost("h1", kinds);
            System.out.printf(Locale.ROOT, "put by a host, 1 enrolled: %.1f ms%n", putMillis(h1, 0));
            int batch = Math.max(1, hosts / 10);
            long all = System.nanoTime();
            for (int from = 2; from <= hosts; from += batch) {
                int to = Math.min(hosts, from + batch - 1);
                long start = System.nanoTime();
                for (int i = from; i <= to; i++) auth.addHost("h" + i, kinds);
                double perHost = (System.nanoTime() - start) / 1e6 / (to - from + 1);
                System.out.printf(Locale.ROOT, "hosts %4d-%4d: %.1f ms per host%n", from, to, perHost);
            }
            System.out.printf(Locale.ROOT, "all %d: %.1f s%n", hosts, (System.nanoTime() - all) / 1e9);
            System.out.printf(Locale.ROOT, "put by a host, %d enrolled: %.1f ms%n", hosts, putMillis(h1, hosts));
            long update = System.nanoTime();
            int changed = auth.updateHosts(kinds);
            System.out.printf(Locale.ROOT, "a coordinator's start with %d enrolled, nothing missing: %.1f s (%d roles changed)%n",
                    hosts, (System.nanoTime() - update) / 1e9, changed);
            List<String> oneMore = new java.util.ArrayList<>(kinds);
            oneMore.add("newkind");
            update = System.nanoTime();
            changed = auth.updateHosts(oneMore);
            System.out.printf(Locale.ROOT, "a coordinator's start after an upgrade adds a kind: %.1f s (%d roles changed)%n",
                    (System.nanoTime() - update) / 1e9, changed);
            long start = System.nanoTime();
            auth.removeHost("h" + hosts);
            System.out.printf(Locale.ROOT, "remove one host (2 changes): %.1f ms%n", (System.nanoTime() - start) / 1e6);
        }
    }

    /** The mean of 50 puts of the host's status. */
    private static double putMillis(Etcd host, int round) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < 50; i++) {
            host.await(host.kv().put(Keys.status("h1"), ByteSequence.from(round + "-" + i, StandardCharsets.UTF_8)));
        }
        return (System.nanoTime() - start) / 1e6 / 50;
    }

    private static Etcd client(LocalEtcd etcd, Path pki, String name) {
        return Etcd.client(EtcdOptions.of(etcd.endpoint(), EtcdOptions.DEFAULT_NAMESPACE, Duration.ofSeconds(30))
                .withTls(new EtcdTls(pki.resolve(name + ".crt"), pki.resolve(name + ".key"), pki.resolve("ca.crt"))));
    }
}
