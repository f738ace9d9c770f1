package io.muster.remote;

import io.muster.agent.etcd.EtcdOptions;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.deploy.Bundle;
import io.muster.coordinator.deploy.BundleReader;
import io.muster.coordinator.deploy.DeployException;
import io.muster.coordinator.deploy.HostTarget;
import io.muster.coordinator.deploy.Validation;
import io.muster.coordinator.status.HostView;
import io.muster.engine.facts.Facts;
import io.muster.proto.fleet.HostStatus;
import io.muster.remote.RemoteResult.Result;
import io.muster.remote.install.Payload;
import io.muster.remote.install.RemoteCache;
import io.muster.remote.ssh.Destination;
import io.muster.remote.ssh.JschConnector;
import io.muster.remote.ssh.SshConnector;
import io.muster.remote.ssh.SshSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code muster remote}: the manifest converged on hosts reached over SSH alone. The manifest is deployed to the run's
 * own fleet ({@link PrivateFleet}); each host, at most {@code cconns} at once, runs muster's agent once through a
 * tunnel to it ({@link HostJob}) and is compiled for with the facts it publishes; its result comes from what its agent
 * reported to the fleet.
 */
public final class RemoteRun {
    /**
     * How the run goes.
     *
     * @param shared the etcd of {@code --etcd}, whose namespace the run works under; null for a private etcd
     * @param fleetPki the directory of the fleet's CA ({@code --pki}), which signs the hosts' certificates for an
     *        {@code https://} shared etcd; null when there is none
     * @param prefix the hosts' state prefix; null for the agent's default for the login
     * @param cconns hosts worked on at once
     * @param retries how often a dropped connection is tried again, per host
     * @param keepCache false for --no-caching
     */
    public record Options(EtcdOptions shared, Path fleetPki, Duration connectTimeout, Duration convergedTimeout, String prefix, int cconns,
                          int retries, boolean keepCache) {
        public Options {
            if (cconns < 1) throw new IllegalArgumentException("--cconns must be at least 1, got " + cconns);
            if (retries < 0) throw new IllegalArgumentException("--retries must be 0 or more, got " + retries);
        }
    }

    /** Nothing ran: the manifest or bundle is refused, or the fleet could not start. Its message is one line. */
    public static final class Refused extends Exception {
        private final List<String> problems;

        Refused(String message, List<String> problems, Throwable cause) {
            super(message, cause);
            this.problems = List.copyOf(problems);
        }

        /** The manifest's errors, FILE:LINE:COL: message each; empty when it was not the manifest. */
        public List<String> problems() {
            return problems;
        }
    }

    private final Options options;
    private final SshConnector connector;
    private final Payload payload;
    private final Consumer<String> log;

    /**
     * @param payload muster's jar and Java runtime, as uploaded to the hosts
     * @param log where progress and the hosts' lines go, a whole line each, from any thread
     */
    public RemoteRun(Options options, SshConnector connector, Payload payload, Consumer<String> log) {
        this.options = options;
        this.connector = connector;
        this.payload = payload;
        this.log = log;
    }

    /** A run whose hosts are reached with {@code ssh} and sent {@code jar} and {@code runtime}. */
    public static RemoteRun overSsh(Options options, SshSettings ssh, Path jar, Path runtime, Consumer<String> log) {
        return new RemoteRun(options, new JschConnector(ssh), new Payload(jar, runtime), log);
    }

    /** Converges {@code hosts} to {@code manifest} (a file, or a directory with site.yaml); their results in the order given. */
    public List<RemoteResult> run(Path manifest, List<Destination> hosts) throws Refused, InterruptedException {
        Bundle bundle;
        try {
            bundle = new BundleReader(BundleReader.DEFAULT_MAX_BYTES, warning -> log.accept("muster: warning: " + warning)).read(manifest);
        } catch (DeployException e) {
            throw new Refused(e.getMessage(), List.of(), e);
        }
        validate(bundle, hosts);
        String run = Long.toString(System.currentTimeMillis(), 36) + "-" + Integer.toString(ThreadLocalRandom.current().nextInt(1 << 24), 36);
        PrivateFleet fleet;
        try {
            fleet = PrivateFleet.start(options.shared(), options.fleetPki(), run, options.connectTimeout());
        } catch (IOException | EtcdUnreachableException e) {
            throw new Refused(e.getMessage(), List.of(), e);
        }
        if (options.shared() != null && options.shared().tls() == null) {
            log.accept("muster: warning: --etcd is http://: while the run lasts, the hosts' local users can reach it through the tunnel; "
                    + "an https:// etcd (with --pki) or no --etcd keeps them out");
        }
        try {
            long deploy = fleet.deploy(bundle, System.getProperty("user.name") + "@" + Facts.hostname());
            AgentCommandLine command = new AgentCommandLine(fleet.namespace(), options.prefix(), options.convergedTimeout(), options.connectTimeout());
            HostJob job = new HostJob(connector, new RemoteCache(), payload, command, fleet.endpoint(), options.retries(), options.keepCache(), run, log);
            return each(hosts, host -> {
                HostJob.Outcome outcome = job.run(host, fleet.admit(host.name()));
                RemoteResult result = result(host.name(), outcome, fleet.host(host.name()), deploy);
                log.accept(progress(result));
                return result;
            });
        } catch (EtcdUnreachableException | DeployException | IOException e) {
            throw new Refused(e.getMessage(), List.of(), e);
        } finally {
            try {
                fleet.close();
            } catch (IOException e) { // the hosts' results stand: only the run's own keys are left behind
                log.accept("muster: warning: " + e.getMessage());
            }
        }
    }

    private interface Work {
        RemoteResult on(Destination host) throws InterruptedException, EtcdUnreachableException, IOException;
    }

    /** {@code work} on every host, at most cconns at once, started in the order given; interrupted, it stops them all. */
    private List<RemoteResult> each(List<Destination> hosts, Work work) throws InterruptedException, EtcdUnreachableException, IOException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(options.cconns(), hosts.size()));
        try {
            List<Future<RemoteResult>> started = new ArrayList<>();
            for (Destination host : hosts) started.add(pool.submit(() -> work.on(host)));
            List<RemoteResult> results = new ArrayList<>();
            for (Future<RemoteResult> f : started) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof EtcdUnreachableException unreachable) throw unreachable;
                    if (e.getCause() instanceof IOException unwritable) throw unwritable; // a host's certificate, here
                    throw new IllegalStateException(e.getCause());
                }
            }
            return results;
        } finally {
            pool.shutdownNow(); // a host's SSH connection closes when its thread is interrupted: its agent stops
            pool.awaitTermination(1, TimeUnit.MINUTES);
        }
    }

    /**
     * The manifest is compiled for each host before anything is started, with this machine's facts and the host's name:
     * a manifest that does not compile fails here, with its FILE:LINE:COL errors, rather than on every host.
     */
    private void validate(Bundle bundle, List<Destination> hosts) throws Refused {
        Map<String, Object> facts = Facts.of(Map.of());
        List<HostTarget> targets = new ArrayList<>();
        for (Destination host : hosts.subList(0, Math.min(hosts.size(), Validation.MAX_HOSTS))) {
            Map<String, Object> named = new HashMap<>(facts);
            named.put("host", host.name());
            targets.add(new HostTarget(host.name(), named));
        }
        Validation.Refusal refused = Validation.check(bundle, targets);
        if (refused != null) {
            throw new Refused(bundle.root().resolve(bundle.manifest()) + " does not compile for " + refused.host() + "; nothing was started",
                    refused.problems(), null);
        }
    }

    /** How a host ended, from its job and what its agent reported to the fleet ({@code view}: null when it never registered). */
    static RemoteResult result(String name, HostJob.Outcome job, HostView view, long deploy) {
        HostStatus status = view == null ? null : view.status().orElse(null);
        if (status == null && (view == null || view.error() == null)) {
            String why = job.failure() != null ? job.failure() : "its agent never reported to the fleet"
                    + (job.lastLine() == null ? " (exit " + job.exit() + ")" : ": " + job.lastLine());
            return new RemoteResult(name, Result.UNREACHABLE, 0, 0, job.seconds(), job.cache(), why);
        }
        // the applies it ran: its live run checks a changed resource again, and reports it stable from then on
        long changed = status == null ? 0 : status.getSummary().getApplies();
        long failed = status == null ? 0 : status.getSummary().getFailed();
        if (job.failure() == null && job.exit() == 0 && view.convergedOn(deploy)) {
            return new RemoteResult(name, Result.CONVERGED, changed, failed, job.seconds(), job.cache(), null);
        }
        String why;
        if (job.failure() != null) why = job.failure();
        else if (view.error() != null) why = firstLine(view.error());
        else if (status.getFailedCount() > 0) {
            why = status.getFailed(0).getId() + ": " + firstLine(status.getFailed(0).getError())
                    + (status.getFailedCount() > 1 ? " (and " + (status.getFailedCount() - 1) + " more)" : "");
        } else why = job.lastLine() != null ? job.lastLine() : "its agent exited " + job.exit();
        return new RemoteResult(name, Result.FAILED, changed, failed, job.seconds(), job.cache(), why);
    }

    private static String firstLine(String text) {
        String first = text.strip().lines().findFirst().orElse("");
        return first.length() < text.strip().length() ? first + " (…)" : first;
    }

    /** The host's last progress line: "web1: converged in 3.1 s, 2 changed". */
    private static String progress(RemoteResult r) {
        String line = r.name() + ": " + r.result().word() + " in " + String.format(Locale.ROOT, "%.1f s", r.seconds());
        if (r.result() == Result.CONVERGED) return line + ", " + r.changed() + " changed";
        return line + ": " + r.error();
    }
}
