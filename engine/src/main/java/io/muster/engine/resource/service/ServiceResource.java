package io.muster.engine.resource.service;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.Edgeable;
import io.muster.engine.resource.Foreseeable;
import io.muster.engine.resource.Refreshable;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One service, through its {@link ServiceManager}. A refresh restarts (or reloads) a service that is to run and was
 * not just started; a stopped one stays stopped. Comes after the package of its name, its unit file or init script,
 * its {@code /etc/default/NAME} and every managed file under {@code /etc/NAME/} and the unit's drop-in directory.
 *
 * @param ensure null to leave it running or not
 * @param enable null to leave its boot-time start alone
 */
record ServiceResource(String name, ServiceKind.Ensure ensure, Boolean enable, ServiceKind.Restart restart, ServiceManager manager)
        implements Refreshable, Edgeable, Foreseeable {

    @Override
    public Set<String> provides() {
        return Set.of("service:" + name);
    }

    @Override
    public List<List<String>> wants() {
        String unit = Systemd.unit(name);
        return List.of(List.of("package:" + name),
                List.of(Edgeable.pathUid(InitScript.INIT_D.resolve(name))),
                List.of("path:/etc/systemd/system/" + unit),
                List.of("path:/lib/systemd/system/" + unit),
                List.of("path:/usr/lib/systemd/system/" + unit),
                List.of("path:/etc/default/" + name));
    }

    @Override
    public Set<String> wantsTrees() {
        return Set.of("path:/etc/" + name, "path:/etc/systemd/system/" + Systemd.unit(name) + ".d");
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws Exception {
        List<Change> changes = new ArrayList<>();
        boolean started = false;
        boolean running = ensure != null || context.refresh() ? manager.running() : false;
        if (ensure == ServiceKind.Ensure.RUNNING && !running) {
            changes.add(Change.of("ensure", "stopped", "running"));
            if (apply) manager.perform(ServiceManager.Action.START);
            started = true;
        } else if (ensure == ServiceKind.Ensure.STOPPED && running) {
            changes.add(Change.of("ensure", "running", "stopped"));
            if (apply) manager.perform(ServiceManager.Action.STOP);
        }
        if (enable != null && enable != manager.enabled()) {
            changes.add(Change.of("enable", !enable, enable));
            if (apply) manager.enable(enable);
        }
        if (context.refresh() && !started && ensure != ServiceKind.Ensure.STOPPED && running) {
            changes.add(new Change(restart == ServiceKind.Restart.RELOAD ? "reloaded" : "restarted", null, null, null));
            if (apply) manager.perform(restart == ServiceKind.Restart.RELOAD ? ServiceManager.Action.RELOAD : ServiceManager.Action.RESTART);
        }
        return Result.changed(changes);
    }

    @Override
    public String failureToCome(Upstream upstream) {
        return manager.failureToCome(upstream);
    }

    @Override
    public void watch(Watcher watcher) throws Exception {
        if (ensure == null) return; // nothing to keep: checked again on the next event
        manager.watch(watcher);
    }
}
