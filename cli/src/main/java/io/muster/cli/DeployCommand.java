package io.muster.cli;

import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.coordinator.deploy.Bundle;
import io.muster.coordinator.deploy.BundleReader;
import io.muster.coordinator.deploy.DeployException;
import io.muster.coordinator.deploy.DeployHistory;
import io.muster.coordinator.deploy.Deployer;
import io.muster.coordinator.deploy.HostTarget;
import io.muster.coordinator.deploy.Validation;
import io.muster.coordinator.status.DeployWait;
import io.muster.coordinator.rollout.RolloutCommands;
import io.muster.coordinator.rollout.RolloutSpec;
import io.muster.coordinator.rollout.RolloutStart;
import io.muster.coordinator.rollout.Rollouts;
import io.muster.coordinator.rollout.Share;
import io.muster.coordinator.status.HostView;
import io.muster.coordinator.status.RolloutJson;
import io.muster.coordinator.status.RolloutView;
import io.muster.coordinator.status.StatusJson;
import io.muster.engine.facts.Facts;
import io.muster.engine.report.JsonDocument;
import io.muster.engine.util.Json;
import io.muster.proto.fleet.Deploy;
import io.muster.proto.fleet.HostStatus;
import io.muster.proto.fleet.Rollout;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "deploy", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Publish a bundle to the fleet as a new deploy and print its id (1, 2, …).",
                "DIR: the bundle is DIR, its root manifest DIR/" + BundleReader.DEFAULT_MANIFEST + ". FILE: the bundle is FILE's directory, "
                        + "FILE its root manifest. Read recursively, leaving out .git and what DIR/.musterignore lists "
                        + "(gitignore-like globs: *.log, /build/, !keep.log); symbolic links are followed only inside the bundle.",
                "The manifest is compiled first, with no environment, for up to " + Validation.MAX_HOSTS + " live hosts with "
                        + "distinct facts (for this host when none is registered): one that does not compile for one of them is "
                        + "refused with that host's errors and nothing is published. A host registered later that it fails on "
                        + "reports the error in muster status and keeps its previous graph."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:deployed (with --wait: every live host converged on it with no failed resource)",
                "1:not deployed: invalid manifest or bundle, or etcd unreachable",
                "2:deployed, but with --wait some live hosts failed or did not converge within --timeout, or its rollout halted", "64:usage error"},
        footerHeading = "%nExamples:%n",
        footer = {
                "  muster deploy examples/fleet --wait     deploy, wait for the hosts",
                "  muster deploy site/other.yaml --message \"new motd\" --output json",
                "  muster deploy examples/fleet --canary 1 --batch 10%% --wait   one host, then waves of a tenth of the hosts",
                "  muster deploy --resume 7 --wait         check the halted wave of deploy 7 again and go on"})
final class DeployCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "DIR|FILE", description = "The bundle's directory, or its root manifest.")
    Path target;

    @Option(names = "--canary", paramLabel = "N", description = "Go out in waves: first to N hosts (in the order below), in a wave of their own.")
    Integer canary;

    @Option(names = "--batch", paramLabel = "N|P%", description = "Go out in waves of N hosts, or P%% of the hosts (after the canaries; default: all of them in one wave).")
    String batch;

    @Option(names = "--max-failures", paramLabel = "N|P%", description = "With waves: how many hosts of a wave (or what share of it) may fail "
            + "with the rollout going on (default: 0; a canary that fails always halts it).")
    String maxFailures;

    @Option(names = "--wave-timeout", paramLabel = "S", description = "With waves: halt when a wave has not settled within S seconds (default: no limit).")
    Double waveTimeout;

    @Option(names = "--order-by", paramLabel = "facts.NAME", description = "With waves: order the hosts by this fact (then by name) rather than by name.")
    String orderBy;

    @Option(names = "--resume", paramLabel = "ID", description = "Resume deploy ID's halted rollout: check its halted wave's hosts again and go on.")
    Long resume;

    @Option(names = "--message", paramLabel = "TEXT", description = "Why, shown by muster deploys.", defaultValue = "")
    String message;

    @Option(names = "--wait", description = "Wait until every live host has converged on the deploy, or failed.")
    boolean await;

    @Option(names = "--timeout", paramLabel = "S", description = "With --wait: give up after S seconds (default: ${DEFAULT-VALUE}).",
            defaultValue = "300")
    double timeout;

    @Option(names = "--max-bundle", paramLabel = "SIZE", description = "Refuse a bundle over SIZE bytes (K, M, G suffixes: KiB…; default: ${DEFAULT-VALUE}).",
            defaultValue = "64M")
    String maxBundle;

    @Mixin
    OutputFlag output;

    @Mixin
    FleetOptions fleet;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!(timeout > 0) || Double.isInfinite(timeout)) throw new ParameterException(spec.commandLine(), "--timeout must be above 0 seconds, got " + timeout);
        long limit = size(maxBundle);
        RolloutSpec rollout = rolloutSpec();
        fleet.etcd(); // a bad flag is a usage error before anything is read
        if (resume != null) {
            if (target != null || rollout != null) throw new ParameterException(spec.commandLine(), "--resume takes no DIR|FILE and no other rollout flag");
            return resume(resume);
        }
        if (target == null) throw new ParameterException(spec.commandLine(), "Missing required parameter: 'DIR|FILE'");
        Bundle bundle;
        try {
            bundle = new BundleReader(limit, warning -> err.println("muster: warning: " + warning)).read(target);
        } catch (DeployException e) {
            err.println("muster: " + e.getMessage());
            return 1;
        }
        String who = System.getProperty("user.name") + "@" + Facts.hostname();
        return FleetCalls.run(spec, fleet, etcd -> {
            Validation.Refusal refused = Validation.check(bundle, HostTarget.live(etcd, Validation.MAX_HOSTS));
            if (refused != null) {
                refused.problems().forEach(err::println);
                err.println("muster: not deployed: " + bundle.root().resolve(bundle.manifest()) + " does not compile for "
                        + refused.host() + (refused.hosts() == 1 ? "" : " (one of the " + refused.hosts() + " live hosts it was checked for)"));
                return 1;
            }
            Deployer.Published published = new Deployer(etcd, Clock.systemUTC()).publish(bundle, message, who,
                    RolloutStart.of(etcd, rollout, Clock.systemUTC()));
            return published(etcd, published.id(), published.files(), published.stored());
        });
    }

    /** {@code --resume ID}: the halted wave is checked again from now, and the rollout goes on. */
    private int resume(long id) throws InterruptedException {
        return FleetCalls.run(spec, fleet, etcd -> {
            Rollout resumed = new RolloutCommands(etcd, Clock.systemUTC()).resume(id);
            if (!output.json()) {
                spec.commandLine().getErr().println("deploy " + id + ": rollout resumed at wave " + (resumed.getWave() + 1) + " of " + resumed.getWavesCount());
            }
            int files = new DeployHistory(etcd).get(id).map(Deploy::getFilesCount).orElse(0);
            return published(etcd, id, files, 0);
        });
    }

    /** Prints the deploy's id (JSON: its document, with its rollout's waves), then with --wait follows it. */
    private int published(Etcd etcd, long id, int files, int stored) throws EtcdUnreachableException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> doc = JsonDocument.create();
        doc.put("deploy", id);
        doc.put("files", files);
        doc.put("stored", stored);
        if (!output.json()) out.println(id);
        out.flush();
        if (await) return waitFor(etcd, id, doc);
        doc.put("rollout", Rollouts.view(etcd, id).map(RolloutJson::of).orElse(null));
        if (output.json()) out.print(Json.pretty(doc) + "\n");
        out.flush();
        return 0;
    }

    /** The rollout the flags ask for; null for a deploy that goes to every host at once. */
    private RolloutSpec rolloutSpec() {
        if (canary == null && batch == null) {
            if (maxFailures != null || waveTimeout != null || orderBy != null) {
                throw new ParameterException(spec.commandLine(), "--max-failures, --wave-timeout and --order-by go with --canary or --batch");
            }
            return null;
        }
        try {
            if (waveTimeout != null && (!(waveTimeout >= 0) || Double.isInfinite(waveTimeout))) throw new IllegalArgumentException("--wave-timeout: expected seconds, got " + waveTimeout);
            return new RolloutSpec(canary == null ? 0 : canary, batch == null ? null : share("--batch", batch),
                    maxFailures == null ? new Share(0, false) : share("--max-failures", maxFailures),
                    Duration.ofMillis(waveTimeout == null ? 0 : Math.round(waveTimeout * 1000)), orderBy);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private static Share share(String flag, String text) {
        try {
            return Share.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage());
        }
    }

    /** {@code --wait}: follows the live hosts, then says how each ended; 0 when all converged on {@code id}, else 2. */
    private int waitFor(Etcd etcd, long id, Map<String, Object> doc) throws EtcdUnreachableException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        WaitProgress progress = new WaitProgress(err, !output.json(), System.console() != null);
        DeployWait.Outcome outcome = new DeployWait(etcd).await(id, Duration.ofMillis(Math.round(timeout * 1000)), progress);
        progress.finish();
        if (output.json()) {
            doc.put("converged", outcome.success());
            doc.put("superseded_by", outcome.supersededBy() == 0 ? null : outcome.supersededBy());
            doc.put("hosts", outcome.hosts().stream().map(StatusJson::host).toList());
            doc.put("rollout", outcome.rollout().map(RolloutJson::of).orElse(null));
            out.print(Json.pretty(doc) + "\n");
        } else {
            for (HostView host : outcome.hosts()) out.println(line(host, id));
            if (outcome.hosts().isEmpty()) err.println("muster: deploy " + id + ": no live hosts to wait for");
            if (outcome.halted()) {
                RolloutView halted = outcome.rollout().orElseThrow();
                err.println("muster: deploy " + id + " " + halted.state().replace('_', ' ') + ": " + halted.reason());
                if (halted.state().equals("stalled")) {
                    err.println("muster: hosts not reached keep " + (halted.previous() == 0 ? "no graph" : "deploy " + halted.previous())
                            + "; muster deploy --resume " + id + " checks wave " + halted.wave() + " again and goes on, muster rollback returns the hosts it reached");
                }
            } else if (outcome.supersededBy() != 0) {
                err.println("muster: deploy " + id + " is no longer current: deploy " + outcome.supersededBy() + " was made current while waiting");
            } else if (!outcome.success()) {
                List<String> bad = outcome.hosts().stream().filter(h -> !h.convergedOn(id)).map(HostView::host).toList();
                err.println("muster: deploy " + id + ": " + bad.size() + " of " + outcome.hosts().size()
                        + " live hosts failed or did not converge within " + format(timeout) + " s: " + String.join(", ", bad));
            }
        }
        out.flush();
        return outcome.success() ? 0 : 2;
    }

    /** One host at the end of a wait: converged, failed (with what), or still pending. */
    private static String line(HostView host, long deploy) {
        if (host.convergedOn(deploy)) return host.host() + ": converged";
        if (host.failedOn(deploy)) {
            StringBuilder line = new StringBuilder(host.host()).append(": failed");
            host.status().ifPresent(s -> s.getFailedList().forEach(f -> line.append("\n  ").append(f.getId()).append(": ").append(f.getError())));
            if (host.compileFailed(deploy)) line.append("\n  ").append(host.error());
            return line.toString();
        }
        long applied = host.status().map(HostStatus::getDeploy).orElse(deploy);
        return host.host() + ": not converged" + (applied == deploy ? "" : applied == 0 ? " (no deploy applied yet)" : " (still on deploy " + applied + ")");
    }

    /**
     * Progress on stderr (text output only): on a terminal one line rewritten as hosts converge; a line per
     * failure as it happens.
     */
    private static final class WaitProgress implements DeployWait.Progress {
        private final PrintWriter err;
        private final boolean shown;
        private final boolean terminal;
        private final WaveProgress waves;
        private boolean lineOpen;
        private boolean inWaves;

        WaitProgress(PrintWriter err, boolean shown, boolean terminal) {
            this.err = err;
            this.shown = shown;
            this.terminal = terminal;
            this.waves = new WaveProgress(err, terminal);
        }

        @Override
        public void rollout(RolloutView rollout) {
            inWaves = rollout.active(); // the waves' bars say more than all hosts' count while it goes out
            if (shown) waves.show(rollout);
        }

        @Override
        public void converged(int converged, int live) {
            if (!shown || !terminal || inWaves) return;
            err.print("\r" + converged + "/" + live + " hosts converged");
            err.flush();
            lineOpen = true;
        }

        @Override
        public void failed(HostView host) {
            if (!shown || inWaves) return; // the wave's line names it
            finish();
            err.println(host.host() + ": failed" + (host.error() == null ? "" : ": " + host.error()));
            err.flush();
        }

        void finish() {
            waves.finish();
            if (lineOpen) err.println();
            lineOpen = false;
        }
    }

    private long size(String text) {
        String t = text.strip().toUpperCase(Locale.ROOT);
        int shift = t.endsWith("K") ? 10 : t.endsWith("M") ? 20 : t.endsWith("G") ? 30 : 0;
        try {
            long n = Long.parseLong(shift == 0 ? t : t.substring(0, t.length() - 1));
            if (n < 1 || n > (Long.MAX_VALUE >> shift)) throw new NumberFormatException();
            return n << shift;
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--max-bundle: expected a positive size such as 64M, got " + text);
        }
    }

    private static String format(double seconds) {
        return seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.valueOf(seconds);
    }
}
