package io.muster.engine.resource.pkg;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Packages converged together: checked against one read of the dpkg database, changed in one
 * {@link AptTransaction}. Noop asks {@code apt-get -s} what the transaction would do, so its report names every
 * package that would change, dependencies too; an apply reports what changed in the database. A transaction
 * that would remove packages nobody asked to remove (apt removes what depends on a removed package) is
 * refused before anything changes.
 */
record PackageTransaction(List<PackageResource> packages) implements Resource {

    PackageTransaction {
        packages = List.copyOf(packages);
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        PackageSession session = context.session(PackageSession.class);
        Installed before = session.installed();
        Map<String, String> candidates = candidates(session.apt());
        List<Step> steps = Step.needed(packages, before, candidates);
        if (steps.isEmpty()) return Result.STABLE.withOutputs(values(before, List.of()));
        List<AptTransaction> transactions = AptTransaction.of(steps);
        if (!apply) {
            List<Change> changes = new ArrayList<>();
            for (AptTransaction t : transactions) changes.addAll(session.apt().simulate(t));
            return Result.changed(changes).withOutputs(values(before, changes));
        }
        for (AptTransaction t : transactions) {
            if (t.removes()) refuseUnaskedRemovals(t, session.apt().simulate(t));
        }
        Installed after = session.transact(transactions);
        for (Step step : steps) {
            String unmet = step.unmet(after, candidates);
            if (unmet != null) throw new IOException(unmet);
        }
        return Result.changed(before.changesTo(after)).withOutputs(values(after, List.of()));
    }

    /** What apt would install for the {@code latest} packages: one {@code apt-cache policy} for all of them. */
    private Map<String, String> candidates(Apt apt) throws IOException, InterruptedException {
        List<String> latest = packages.stream().filter(p -> p.ensure().state() == Ensure.State.LATEST).map(PackageResource::name).toList();
        return latest.isEmpty() ? Map.of() : apt.candidates(latest);
    }

    private static void refuseUnaskedRemovals(AptTransaction transaction, List<Change> simulated) throws IOException {
        TreeSet<String> unasked = new TreeSet<>();
        for (Change c : simulated) {
            if ("absent".equals(c.to()) && !transaction.removals().contains(c.attribute())) unasked.add(c.attribute());
        }
        if (unasked.isEmpty()) return;
        throw new IOException("removing " + String.join(", ", transaction.removals()) + " would also remove "
                + String.join(", ", unasked) + " (apt removes what depends on a removed package); nothing was changed:"
                + " declare " + (unasked.size() == 1 ? "it" : "them") + " absent too, or keep what they depend on");
    }

    /**
     * The value {@code version} of a resource converged alone (grouped ones are never read: the compiler
     * groups no resource whose values another reads): installed, or in noop as it would be.
     */
    private Map<String, Object> values(Installed installed, List<Change> foreseen) {
        if (packages.size() != 1) return Map.of();
        String name = packages.getFirst().name();
        String version = installed.version(name);
        for (Change c : foreseen) {
            if (c.attribute().equals(name)) version = "absent".equals(c.to()) ? null : c.to();
        }
        return version == null ? Map.of() : Map.of("version", version);
    }

    /** dpkg replaces its status file at the end of every run: a change of any package shows there. */
    @Override
    public void watch(Watcher watcher) throws Exception {
        watcher.hold(watcher.watchPath(PackageSession.STATUS, watcher::changed));
        watcher.ready();
    }
}
