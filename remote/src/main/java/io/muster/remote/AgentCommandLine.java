package io.muster.remote;

import io.muster.remote.install.RemoteCredentials;
import io.muster.remote.ssh.Shell;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command that runs muster's agent on a host over SSH: once ({@code --once}), against the private fleet's etcd
 * through the tunnel on the host's loopback, and gone with the connection ({@code --stop-on-stdin-eof}). With a
 * certificate uploaded for it, the agent logs in with it over TLS, and the shell removes it as soon as the agent ends,
 * however it ends (the connection dropping makes it stop too).
 *
 * @param namespace the fleet's namespace
 * @param prefix the host's state prefix ({@code --prefix}), {@value #HOST_TOKEN} in it standing for the host's name; null
 *        for the agent's default for the login
 * @param convergedTimeout how long the agent waits for its graph to converge
 * @param connectTimeout how long the agent waits for etcd to answer
 */
public record AgentCommandLine(String namespace, String prefix, Duration convergedTimeout, Duration connectTimeout) {
    /**
     * The agent's lease: its alive key goes at once when the agent stops (it revokes the lease), and within this
     * many seconds when it is killed; the fleet lives no longer than the run.
     */
    static final int LEASE_TTL_SECONDS = 10;

    /** In --prefix, the host's name: several hosts on one machine (or sharing a home) keep their states apart. */
    public static final String HOST_TOKEN = "%h";

    /**
     * The launcher's JVM flags: a small, short-lived process (serial GC, C1 only), native access for muster's file
     * changes, and protobuf's use of sun.misc.Unsafe allowed without a warning on the runtime's JDK 25.
     */
    private static final List<String> JVM = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow");

    /**
     * The classes muster loads, archived beside its jar by the first run on a host and mapped by the next ones: the agent
     * starts in about half the time (1.4 s instead of 2.5 s on loopback), which is most of a warm run. It needs the
     * runtime's base archive (jlink --generate-cds-archive); without one, or with an archive a crash left torn, the JVM
     * runs without and says nothing (its cds logging is off).
     */
    private static final String ARCHIVE = "muster.jsa";

    /**
     * The shell command for {@code host}, with muster installed at {@code java} and {@code jar} and the tunnel to etcd
     * on port {@code etcdPort} of the host's loopback; every word quoted for the remote's shell.
     *
     * @param tls the agent's certificate on the host, removed when the agent ends; null for an {@code http://} etcd
     */
    public String render(String java, String jar, String host, int etcdPort, RemoteCredentials.Placed tls) {
        List<String> words = new ArrayList<>();
        words.add(java);
        words.addAll(JVM);
        words.addAll(List.of("-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=" + jar.substring(0, jar.lastIndexOf('/') + 1) + ARCHIVE,
                "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
        words.addAll(List.of("-jar", jar, "agent", "--once", "--stop-on-stdin-eof", "--host", host,
                "--etcd", (tls == null ? "http" : "https") + "://127.0.0.1:" + etcdPort, "--namespace", namespace,
                "--converged-timeout", seconds(convergedTimeout), "--connect-timeout", seconds(connectTimeout),
                "--lease-ttl", Integer.toString(LEASE_TTL_SECONDS)));
        if (tls != null) words.addAll(List.of("--etcd-cert", tls.certificate(), "--etcd-key", tls.key(), "--etcd-ca", tls.ca()));
        if (prefix != null) words.addAll(List.of("--prefix", prefix.replace(HOST_TOKEN, host)));
        String agent = String.join(" ", words.stream().map(Shell::quote).toList());
        return tls == null ? agent : agent + "; status=$?; " + tls.removal() + "; exit $status";
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? Long.toString(d.toSeconds()) : String.format(Locale.ROOT, "%.3f", d.toMillis() / 1000.0);
    }
}
