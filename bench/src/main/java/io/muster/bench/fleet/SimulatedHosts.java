package io.muster.bench.fleet;

import io.muster.agent.Agent;
import io.muster.agent.AgentOptions;
import io.muster.agent.CodecGraphDecoder;
import io.muster.agent.GraphDecoder;
import io.muster.agent.etcd.Etcd;
import io.muster.engine.metrics.Metrics;
import io.muster.engine.resource.Kinds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * N agents in this JVM, each as {@code muster agent} runs one: its own host name ({@code h0001} …), state
 * prefix, lease, facts, graph watch and status; they share one etcd client, as the issue allows. Host
 * {@code h0001} keeps its state under {@code DIR/h0001/state} and has the fact {@code root: DIR/h0001/root},
 * under which the bench's manifest puts its files.
 */
final class SimulatedHosts implements AutoCloseable {
    /** As {@code muster agent}'s: how long nothing may change for a host to count as converged. */
    static final double QUIET_SECONDS = 1;

    private final List<Agent> agents = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final Path dir;

    SimulatedHosts(Etcd etcd, Path dir, int n) throws IOException {
        this.dir = dir;
        GraphDecoder decoder = new CodecGraphDecoder(Kinds.installed());
        // one registry, as one agent process has: a registry per agent would register the JVM's metrics N times
        Metrics metrics = new Metrics();
        int cores = Runtime.getRuntime().availableProcessors();
        for (int i = 1; i <= n; i++) {
            String host = name(i);
            Path home = Files.createDirectories(root(host)).getParent(); // the root stands for a host's /
            AgentOptions options = new AgentOptions(host, home.resolve("state"), Map.of("root", root(host).toString()),
                    AgentOptions.DEFAULT_LEASE_TTL, QUIET_SECONDS, cores);
            agents.add(new Agent(options, etcd, decoder, metrics));
            names.add(host);
        }
    }

    static String name(int i) {
        return String.format("h%04d", i);
    }

    List<String> names() {
        return names;
    }

    /** Where host {@code host}'s manifest puts its files (its {@code root} fact). */
    Path root(String host) {
        return dir.resolve(host).resolve("root");
    }

    /** Starts every agent, on virtual threads: each registers, follows its pointer and reports as it would alone. */
    void start() throws Exception {
        forEach(agent -> agent.start());
    }

    @Override
    public void close() throws Exception {
        forEach(Agent::close);
    }

    private interface AgentCall {
        void call(Agent agent) throws Exception;
    }

    private void forEach(AgentCall call) throws Exception {
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> calls = new ArrayList<>();
            for (Agent agent : agents) calls.add(threads.submit(() -> {
                call.call(agent);
                return null;
            }));
            for (Future<?> f : calls) f.get();
        }
    }
}
