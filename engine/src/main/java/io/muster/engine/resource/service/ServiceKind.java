package io.muster.engine.resource.service;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.nio.file.Path;
import java.util.Set;

/**
 * {@code service}: {@code ensure: running|stopped}, {@code enable: true|false} (each left alone when unset),
 * {@code restart: reload} to reload instead of restart on a refresh, {@code provider} to choose the manager,
 * {@code pidfile} for the init-script manager's watch ({@code /run/NAME.pid} by default).
 */
public final class ServiceKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of("name", Set.of(),
            Property.required("name", Type.STRING).checkedBy(ServiceKind::nameProblem),
            Property.oneOf("ensure", "running", "stopped"),
            Property.oneOf("enable", "true", "false"), // a string: unset, true and false are three different things
            Property.oneOf("restart", "restart", "reload"),
            Property.oneOf("provider", "systemd", "init"),
            Property.optional("pidfile", Type.PATH));

    enum Ensure { RUNNING, STOPPED }

    enum Restart { RESTART, RELOAD }

    @Override
    public String name() {
        return "service";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public boolean runsCommands() {
        return true;
    }

    @Override
    public Resource create(TypedParams p) throws InvalidResourceException {
        String name = p.string("name");
        Managers.Provider provider = Managers.choose(p.optionalChoice("provider", Managers.Provider.class).orElse(null), Managers.SYSTEMD_RUNTIME);
        Path pidfile = p.optionalAbsolutePath("pidfile").orElse(Path.of("/run", name + ".pid"));
        Boolean enable = p.optionalString("enable").map(Boolean::valueOf).orElse(null);
        return new ServiceResource(name, p.optionalChoice("ensure", Ensure.class).orElse(null), enable,
                p.choice("restart", Restart.RESTART), Managers.of(provider, name, pidfile));
    }

    /** A name that is one file in {@code /etc/init.d} and one unit: no '/', no leading '.' or '-'. */
    private static String nameProblem(Object raw) {
        String name = String.valueOf(raw);
        return name.matches("[A-Za-z0-9_@:][A-Za-z0-9_@:.+-]*") ? null
                : "expected a service name (letters, digits, '_', '@', ':', '.', '+', '-'; not starting with '.' or '-'), got '" + name + "'";
    }
}
