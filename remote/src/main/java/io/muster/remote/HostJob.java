package io.muster.remote;

import io.muster.agent.etcd.Backoff;
import io.muster.agent.etcd.EtcdTls;
import io.muster.remote.install.Installed;
import io.muster.remote.install.Payload;
import io.muster.remote.install.RemoteCache;
import io.muster.remote.install.RemoteCredentials;
import io.muster.remote.ssh.Destination;
import io.muster.remote.ssh.SshConnection;
import io.muster.remote.ssh.SshConnector;
import io.muster.remote.ssh.SshException;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * One host of {@code muster remote}: connect, put muster there (or find it in the host's cache), upload the host's etcd
 * certificate for this run into a private directory there, open the tunnel to the fleet's etcd, and run the agent
 * once, its lines streamed to {@code log} with the host's name before them; the certificate goes when the agent ends.
 * A dropped connection (a retriable {@link SshException}) is tried again from the start, up to {@code retries} times;
 * any other SSH failure ends the host's job at once.
 */
final class HostJob {
    /**
     * How the job ended, for the host's result.
     *
     * @param cache uploaded or reused; null when muster never got there
     * @param exit the agent's exit status; -1 when it did not run to its end
     * @param lastLine the agent's last line, which says why when it never reported to the fleet; null for none
     * @param failure why the job ended before the agent did (SSH failed, or muster's files here could not be read), one
     *        line; null when the agent ran to its end
     */
    record Outcome(String cache, int exit, String lastLine, String failure, double seconds) {}

    /** Between attempts: a moment for a network that dropped, or an sshd restarting, to come back. */
    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);

    private final SshConnector connector;
    private final RemoteCache cache;
    private final RemoteCredentials credentials;
    private final Payload payload;
    private final AgentCommandLine command;
    private final URI etcd;
    private final int retries;
    private final boolean keepCache;
    private final String run;
    private final Consumer<String> log;

    /**
     * @param etcd the fleet's etcd as this machine reaches it: where the tunnel leads
     * @param keepCache false for --no-caching: what was installed is removed once the agent is done; each host's
     *        copy is then its own (named after {@code run} and the host), so two names of one machine never
     *        remove the copy the other one runs
     * @param log where the host's lines go, each whole ("NAME: …")
     */
    HostJob(SshConnector connector, RemoteCache cache, Payload payload, AgentCommandLine command, URI etcd, int retries, boolean keepCache,
            String run, Consumer<String> log) {
        this.connector = connector;
        this.cache = cache;
        this.credentials = new RemoteCredentials(cache);
        this.payload = payload;
        this.command = command;
        this.etcd = etcd;
        this.retries = retries;
        this.keepCache = keepCache;
        this.run = run;
        this.log = log;
    }

    /** @param tls the host's etcd certificate here, uploaded for its agent; null for an {@code http://} etcd */
    Outcome run(Destination host, EtcdTls tls) throws InterruptedException {
        long start = System.nanoTime();
        String cached = null;
        AtomicReference<String> lastLine = new AtomicReference<>();
        say(host, "connecting");
        Backoff backoff = new Backoff(FIRST_RETRY, FIRST_RETRY.multipliedBy(8));
        for (int attempt = 0; ; attempt++) {
            RemoteCredentials.Placed placed = null;
            try (SshConnection connection = connector.connect(host)) {
                RemoteCache cache = keepCache ? this.cache : this.cache.ofItsOwn("run-" + run + "-" + host.name());
                Installed installed = cache.ensure(connection, payload);
                cached = installed.uploaded() ? "uploaded" : "reused";
                say(host, installed.uploaded() ? "uploaded muster (" + megabytes(installed.bytesUploaded()) + ")" : "muster found in the cache");
                if (tls != null) placed = credentials.upload(connection, installed, tls);
                int port = connection.forwardRemotePort(etcd.getHost(), etcd.getPort());
                int exit = connection.exec(command.render(installed.java(), installed.jar(), host.name(), port, placed), line -> {
                    lastLine.set(line);
                    say(host, line);
                });
                if (!keepCache) cache.remove(connection, installed);
                return new Outcome(cached, exit, lastLine.get(), null, seconds(start));
            } catch (IOException e) { // muster's own files here could not be read: no host can have them
                return new Outcome(cached, -1, lastLine.get(), "cannot upload muster: " + e.getMessage(), seconds(start));
            } catch (SshException e) {
                if (placed != null) credentials.abandon(host.name(), placed); // its agent's shell removes it, unless it never ran
                if (!e.retriable() || attempt >= retries) return new Outcome(cached, -1, lastLine.get(), e.getMessage(), seconds(start));
                say(host, e.getMessage() + "; trying again (" + (attempt + 1) + " of " + retries + ")");
                Thread.sleep(backoff.next());
            }
        }
    }

    /** {@code line} with the host's name before it, unless it names the host already (the agent's last line does). */
    private void say(Destination host, String line) {
        log.accept(line.startsWith(host.name() + ": ") ? line : host.name() + ": " + line);
    }

    private static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
