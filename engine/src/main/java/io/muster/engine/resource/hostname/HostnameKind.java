package io.muster.engine.resource.hostname;

import io.muster.engine.resource.Property;
import io.muster.engine.resource.Resource;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.resource.Schema;
import io.muster.engine.resource.Type;
import io.muster.engine.resource.TypedParams;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/**
 * {@code hostname}: the host's names, as mgmt's kind sets them through systemd-hostnamed, here in the files
 * hostnamed keeps them in: {@code static_hostname} in {@code /etc/hostname}, {@code transient_hostname} the
 * kernel's ({@code /proc/sys/kernel/hostname}), {@code pretty_hostname} as {@code PRETTY_HOSTNAME} in
 * {@code /etc/machine-info}. {@code hostname} is the default of all three; a name left unset is left alone.
 */
public final class HostnameKind implements ResourceKind {
    private static final Schema SCHEMA = Schema.of(null, Set.of(),
            Property.optional("hostname", Type.STRING).checkedBy(HostnameKind::hostNameProblem),
            Property.optional("static_hostname", Type.STRING).checkedBy(HostnameKind::hostNameProblem),
            Property.optional("transient_hostname", Type.STRING).checkedBy(HostnameKind::hostNameProblem),
            Property.optional("pretty_hostname", Type.STRING).checkedBy(raw -> String.valueOf(raw).contains("\n") ? "expected one line" : null));

    private final HostNames files;

    public HostnameKind() {
        this(new HostNames(Path.of("/etc/hostname"), Path.of("/proc/sys/kernel/hostname"), Path.of("/etc/machine-info")));
    }

    /** A kind whose names live in {@code files}: tests give files of their own. */
    HostnameKind(HostNames files) {
        this.files = files;
    }

    /** Why {@code raw} cannot be a host's name (hostnamed's rule: letters, digits, '-' and '.', at most 64), or null. */
    private static String hostNameProblem(Object raw) {
        String name = String.valueOf(raw);
        return name.matches("[A-Za-z0-9][A-Za-z0-9.-]{0,63}") ? null
                : "'" + name + "' is not a host name (letters, digits, '-' and '.', at most 64)";
    }

    @Override
    public String name() {
        return "hostname";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Resource create(TypedParams params) {
        Optional<String> all = params.optionalString("hostname");
        Optional<String> statik = params.optionalString("static_hostname").or(() -> all);
        Optional<String> kernel = params.optionalString("transient_hostname").or(() -> all);
        Optional<String> pretty = params.optionalString("pretty_hostname").or(() -> all);
        return new HostnameResource(files, statik, kernel, pretty);
    }
}
