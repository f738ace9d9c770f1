package io.muster.bench.fleet;

import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.GetOption;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code muster coordinator}, run through the launcher as users run it, its output in a log file.
 * A process of its own, so that its peak RSS is its own.
 */
final class CoordinatorProcess implements AutoCloseable {
    private final Process process;

    private CoordinatorProcess(Process process) {
        this.process = process;
    }

    /** @param compileThreads its --compile-threads; 0 for its default */
    static CoordinatorProcess start(Path muster, String endpoint, String namespace, Path prefix, int compileThreads, Path log) throws IOException {
        List<String> command = new ArrayList<>(List.of(muster.toString(), "coordinator", "--etcd", endpoint, "--namespace", namespace,
                "--prefix", prefix.toString()));
        if (compileThreads > 0) command.addAll(List.of("--compile-threads", Integer.toString(compileThreads)));
        return new CoordinatorProcess(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start());
    }

    /**
     * Waits until it leads: its key under coordinator/leader is in etcd. A poll, not a measurement: the
     * launcher's start-up is not timed.
     */
    void awaitLeading(Client etcd, String namespace, Duration patience) throws IOException, InterruptedException, ExecutionException {
        GetOption count = GetOption.builder().isPrefix(true).withCountOnly(true).build();
        long deadline = System.nanoTime() + patience.toNanos();
        while (etcd.getKVClient().get(FleetWatch.bytes(namespace + "coordinator/leader"), count).get().getCount() == 0) {
            if (!process.isAlive()) throw new IOException("the coordinator exited with " + process.exitValue() + " before it led");
            if (System.nanoTime() > deadline) throw new IOException("the coordinator did not lead within " + patience.toSeconds() + " s");
            process.waitFor(20, TimeUnit.MILLISECONDS); // a poll interval that ends early if it dies
        }
    }

    /** Its peak resident set so far, in MB. */
    double peakRssMb() throws IOException {
        return ProcStatus.peakRssMb(process.pid());
    }

    /** The CPU time it has used so far, in seconds. */
    double cpuSeconds() throws IOException {
        return ProcStatus.cpuSeconds(process.pid());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
}
