package io.muster.agent.etcd;

import io.etcd.jetcd.ByteSequence;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The fleet's key layout, relative to the namespace ({@code --namespace}, default {@code /muster/}), which the
 * {@link Etcd} client prefixes to every key:
 *
 * <pre>
 * hosts/&lt;host&gt;/alive      lease-bound: agent version, start time (fleet.Alive)
 * hosts/&lt;host&gt;/facts      the facts the coordinator compiles with (fleet.Facts)
 * hosts/&lt;host&gt;/graph      which graph the host runs: deploy, graph hash, compile error (fleet.GraphPointer)
 * hosts/&lt;host&gt;/status     what the agent reports on each transition (fleet.HostStatus)
 * hosts/&lt;host&gt;/certificate  the coordinator's side of renewing the host's certificate (fleet.CertificateRotation)
 * renewals/&lt;host&gt;          the agent's side of it (fleet.CertificateRenewal)
 * graphs/&lt;host&gt;/&lt;sha256&gt;  the compiled graph the host's pointer names (fleet.Chunked); only that host
 *                         (and the coordinator) may read under graphs/&lt;host&gt;/, as a graph carries the host's data
 * blobs/&lt;sha256&gt;          a bundle file's content (fleet.Chunked), read by every host
 * manifests/&lt;sha256&gt;      a bundle's manifest or data file (fleet.Chunked), read by coordinators only
 * deploys/&lt;id&gt;            a deploy: message, who, bundle listing (fleet.Deploy); ids zero-padded to sort
 * deploys/current         the deploy hosts converge to (fleet.CurrentDeploy)
 * rollouts/&lt;id&gt;           how deploy id goes out in waves (fleet.Rollout); ids zero-padded as deploys'
 * coordinator/leader      the coordinators' election
 * world/hosts/&lt;host&gt;/&lt;key&gt;   a host's World keys; world/shared/&lt;key&gt; the fleet's shared ones
 * exported/&lt;kind&gt;/&lt;host&gt;/&lt;name&gt;   a resource a host exports, bound to its agent's lease ('%' and '/' in the
 *                         kind are written %25 and %2F, so a kind's keys are exactly those under its prefix)
 * </pre>
 */
public final class Keys {
    /** Host names as the fleet knows them: DNS-like names, and HOST:PORT as agentless hosts are written. */
    private static final Pattern HOST = Pattern.compile("[A-Za-z0-9_](?:[A-Za-z0-9._:-]{0,252})");

    public static final ByteSequence HOSTS = key("hosts/");
    public static final ByteSequence GRAPHS = key("graphs/");
    public static final ByteSequence BLOBS = key("blobs/");
    public static final ByteSequence DEPLOYS = key("deploys/");
    public static final ByteSequence CURRENT_DEPLOY = key("deploys/current");
    /** Not under deploys/, whose listing reads every key there as a deploy. */
    public static final ByteSequence ROLLOUTS = key("rollouts/");
    public static final ByteSequence LEADER = key("coordinator/leader");
    public static final ByteSequence EXPORTED = key("exported/");

    private Keys() {}

    /**
     * {@code host} when it is a valid host name.
     *
     * @throws IllegalArgumentException saying which characters are allowed
     */
    public static String checkHost(String host) {
        if (host == null || !HOST.matcher(host).matches()) {
            throw new IllegalArgumentException("invalid host name '" + host + "': expected letters, digits and . _ - : "
                    + "(at most 253, not starting with . - or :)");
        }
        return host;
    }

    public static ByteSequence host(String host) {
        return key("hosts/" + checkHost(host) + "/");
    }

    public static ByteSequence alive(String host) {
        return key("hosts/" + checkHost(host) + "/alive");
    }

    public static ByteSequence facts(String host) {
        return key("hosts/" + checkHost(host) + "/facts");
    }

    public static ByteSequence graphPointer(String host) {
        return key("hosts/" + checkHost(host) + "/graph");
    }

    public static ByteSequence status(String host) {
        return key("hosts/" + checkHost(host) + "/status");
    }

    public static ByteSequence certificateRotation(String host) {
        return key("hosts/" + checkHost(host) + "/certificate");
    }

    /** Every host's answer to a certificate rotation: the prefix of {@link #renewal}. */
    public static final ByteSequence RENEWALS = key("renewals/");

    public static ByteSequence renewal(String host) {
        return key("renewals/" + checkHost(host));
    }

    /** The host of a {@code renewals/<host>} key; null for another key. */
    public static String parseRenewal(ByteSequence key) {
        String text = text(key);
        return text.startsWith("renewals/") && text.length() > "renewals/".length() ? text.substring("renewals/".length()) : null;
    }

    /** The host a {@code hosts/<host>/<what>} key belongs to, and what it holds; null for another key. */
    public static HostKey parseHostKey(ByteSequence key) {
        String text = text(key);
        if (!text.startsWith("hosts/")) return null;
        int slash = text.lastIndexOf('/');
        if (slash <= "hosts/".length()) return null;
        return new HostKey(text.substring("hosts/".length(), slash), text.substring(slash + 1));
    }

    /** A key under {@code hosts/}: the host's name, and which of its keys ({@code alive}, {@code facts}, …). */
    public record HostKey(String host, String what) {}

    /** {@code host}'s graph {@code sha256}: a graph is stored per host, as only its host may read it. */
    public static ByteSequence graph(String host, String sha256) {
        return key(text(graphs(host)) + checkSha(sha256));
    }

    /** Every graph of {@code host}: the range its role reads. */
    public static ByteSequence graphs(String host) {
        return key("graphs/" + checkHost(host) + "/");
    }

    public static ByteSequence blob(String sha256) {
        return key("blobs/" + checkSha(sha256));
    }

    /** A bundle's manifest or data file: a compile input, which only coordinators read. */
    public static ByteSequence manifest(String sha256) {
        return key("manifests/" + checkSha(sha256));
    }

    public static ByteSequence deploy(long id) {
        if (id < 1) throw new IllegalArgumentException("deploy ids start at 1, got " + id);
        return key(String.format(Locale.ROOT, "deploys/%020d", id));
    }

    /** The id of a {@code deploys/<id>} key; -1 for {@code deploys/current} and anything else. */
    public static long parseDeploy(ByteSequence key) {
        return parseId("deploys/", key);
    }

    public static ByteSequence rollout(long id) {
        if (id < 1) throw new IllegalArgumentException("deploy ids start at 1, got " + id);
        return key(String.format(Locale.ROOT, "rollouts/%020d", id));
    }

    /** The deploy id of a {@code rollouts/<id>} key; -1 for anything else. */
    public static long parseRollout(ByteSequence key) {
        return parseId("rollouts/", key);
    }

    private static long parseId(String prefix, ByteSequence key) {
        String text = text(key);
        if (!text.startsWith(prefix)) return -1;
        String digits = text.substring(prefix.length());
        return digits.matches("[0-9]{20}") ? Long.parseLong(digits) : -1;
    }

    public static ByteSequence worldHost(String host, String name) {
        return key("world/hosts/" + checkHost(host) + "/" + name);
    }

    public static ByteSequence worldShared(String name) {
        return key("world/shared/" + name);
    }

    /** Every export of {@code kind}, of all hosts: the prefix of {@link #exported}. */
    public static ByteSequence exportedKind(String kind) {
        return key("exported/" + kind.replace("%", "%25").replace("/", "%2F") + "/");
    }

    public static ByteSequence exported(String kind, String host, String name) {
        return key(text(exportedKind(kind)) + checkHost(host) + "/" + name);
    }

    /**
     * The exporting host and the export's name of a key under {@link #exportedKind}{@code (kind)}; null for a
     * key not shaped so.
     */
    public static Export parseExported(String kind, ByteSequence key) {
        String prefix = text(exportedKind(kind));
        String text = text(key);
        if (!text.startsWith(prefix)) return null;
        int slash = text.indexOf('/', prefix.length());
        if (slash < 0 || slash == text.length() - 1) return null;
        return new Export(text.substring(prefix.length(), slash), text.substring(slash + 1));
    }

    /** An export's key: who exported it, and its name. */
    public record Export(String host, String name) {}

    /** The kind, exporting host and name of a key under {@link #EXPORTED}; null for a key not shaped so. */
    public static ExportKey parseExportKey(ByteSequence key) {
        String text = text(key);
        if (!text.startsWith("exported/")) return null;
        int slash = text.indexOf('/', "exported/".length());
        if (slash < 0) return null;
        String kind = text.substring("exported/".length(), slash).replace("%2F", "/").replace("%25", "%");
        Export export = parseExported(kind, key);
        return export == null ? null : new ExportKey(kind, export.host(), export.name());
    }

    /** An export's key, whatever its kind. */
    public record ExportKey(String kind, String host, String name) {}

    /** The chunk {@code n} of a chunked value stored at {@code key}. */
    public static ByteSequence chunk(ByteSequence key, int n) {
        return key(text(key) + "/" + n);
    }

    public static ByteSequence key(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    public static String text(ByteSequence key) {
        return key.toString(StandardCharsets.UTF_8);
    }

    private static String checkSha(String sha256) {
        if (!sha256.matches("[0-9a-f]{64}")) throw new IllegalArgumentException("expected a sha256 in hex, got " + sha256);
        return sha256;
    }
}
