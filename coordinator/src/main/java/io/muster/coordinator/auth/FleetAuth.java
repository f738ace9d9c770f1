package io.muster.coordinator.auth;

import io.etcd.jetcd.Auth;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.auth.Permission;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.agent.pki.FleetCa;
import io.muster.coordinator.etcd.Pages;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The fleet's etcd users and roles, managed as etcd's {@code root} (the client certificate whose common name is
 * root). Clients log in by certificate: etcd takes the common name as the user. Every key is under the namespace.
 *
 * <ul>
 *   <li>{@value #COORDINATOR}: reads and writes the whole namespace (graphs, pointers, deploys, the election).
 *   <li>{@value #HOSTS}, granted to every host: reads {@code blobs/}, {@code deploys/} and {@code exported/};
 *       reads and writes {@code world/shared/}, the World's keys shared by all hosts. Not {@code graphs/}: a graph
 *       carries its host's data.
 *   <li>{@code host-<name>}, the user and role of one host: reads {@code hosts/<name>/} (its graph pointer) and
 *       {@code graphs/<name>/} (its graph), writes its {@code alive}, {@code facts} and {@code status}, its {@code
 *       renewals/<name>} (its side of a certificate rotation), its {@code world/hosts/<name>/} and {@code exported/<kind>/<name>/} for each resource kind this coordinator knows
 *       (etcd grants key ranges, and the host is in the middle of an export's key: one range per kind).
 * </ul>
 *
 * Each call is idempotent: run again, it leaves what is there and adds what is missing, and changes nothing
 * when nothing is missing (etcd rebuilds its permission cache on every change of a role: a coordinator starting
 * against a thousand enrolled hosts must not rewrite them all).
 *
 * <p>A run of {@code muster remote} on a fleet's etcd has hosts of its own under a namespace of its own ({@link
 * #forRun}): their users and roles are named {@code remote-RUN-host-<name>} and {@code remote-RUN-muster-host}, so
 * they never meet the fleet's, and a run's certificate grants nothing outside the run's namespace.
 */
public final class FleetAuth {
    public static final String ROOT = "root";
    public static final String COORDINATOR = "muster-coordinator";
    public static final String HOSTS = "muster-host";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Etcd etcd;
    private final Auth auth;
    private final String namespace;
    /** Before the name of each user and role of hosts: empty for the fleet's own, "remote-RUN-" for a run's. */
    private final String scope;

    /** @param root a client logged in as etcd's root user */
    public FleetAuth(Etcd root) {
        this(root, "");
    }

    private FleetAuth(Etcd root, String scope) {
        this.etcd = root;
        this.auth = root.jetcd().getAuthClient();
        this.namespace = root.options().namespace();
        this.scope = scope;
    }

    /**
     * The hosts of one {@code muster remote} run: {@code root}'s namespace is the run's, and their users and roles are
     * named after {@code run} (letters, digits and '-').
     */
    public static FleetAuth forRun(Etcd root, String run) {
        if (!run.matches("[a-z0-9-]+")) throw new IllegalArgumentException("not a run id: " + run);
        return new FleetAuth(root, "remote-" + run + "-");
    }

    /** The etcd user (a client certificate's common name) of the fleet's {@code host}. */
    public static String hostUser(String host) {
        return FleetCa.hostUser(host);
    }

    /** The etcd user (a client certificate's common name) of {@code host} as this scope names it. */
    public String userOf(String host) {
        return scope + hostUser(host);
    }

    /** The root and coordinator users, the hosts' shared role, and etcd's auth switched on. */
    public void setUp() throws EtcdUnreachableException {
        user(ROOT);
        grantRole(ROOT, ROOT);
        role(COORDINATOR);
        grant(COORDINATOR, prefix(""), Permission.Type.READWRITE);
        user(COORDINATOR);
        grantRole(COORDINATOR, COORDINATOR);
        setUpHosts();
        etcd.await(auth.authEnable());
    }

    /**
     * The role every host of this scope has: what all hosts may read, and the World's shared keys. A role set up
     * by an earlier muster, which let every host read every graph, loses that grant.
     */
    public void setUpHosts() throws EtcdUnreachableException {
        String hosts = scope + HOSTS;
        role(hosts);
        List<Grant> shared = new ArrayList<>();
        for (String read : new String[] {"blobs/", "deploys/", "exported/"}) shared.add(new Grant(prefix(read), Permission.Type.READ));
        shared.add(new Grant(prefix("world/shared/"), Permission.Type.READWRITE));
        Set<Grant> granted = grants(hosts);
        grantMissing(hosts, granted, shared);
        Range everyGraph = prefix("graphs/");
        for (Grant old : granted) {
            if (old.range().equals(everyGraph)) etcd.await(auth.roleRevokePermission(bytes(hosts), old.range().key(), old.range().end()));
        }
    }

    /** Deletes the role of {@link #setUpHosts}: for a run's scope, once its hosts are removed. */
    public void removeHostsRole() throws EtcdUnreachableException {
        ignoring("not found", auth.roleDelete(bytes(scope + HOSTS)));
    }

    /** {@code host}'s user and role, allowed to export resources of {@code kinds}. */
    public void addHost(String host, Collection<String> kinds) throws EtcdUnreachableException {
        String user = userOf(host);
        role(user);
        grantMissing(user, grants(user), hostGrants(host, kinds));
        user(user);
        grantRole(user, scope + HOSTS);
        grantRole(user, user);
    }

    /**
     * Gives every host of this scope what {@link #addHost} gives a host now: a host enrolled by an earlier muster
     * may read its graph where graphs are now, and export a kind added since. A coordinator calls it as it starts.
     *
     * @return how many hosts' roles changed
     */
    public int updateHosts(Collection<String> kinds) throws EtcdUnreachableException {
        String rolePrefix = scope + FleetCa.HOST_USER;
        int changed = 0;
        for (String role : etcd.await(auth.roleList()).getRoles()) {
            if (!role.startsWith(rolePrefix)) continue;
            String host = role.substring(rolePrefix.length());
            try {
                Keys.checkHost(host);
            } catch (IllegalArgumentException notAHost) {
                continue;
            }
            if (grantMissing(role, grants(role), hostGrants(host, kinds))) changed++;
        }
        return changed;
    }

    /** What {@code host}'s own role grants. */
    private List<Grant> hostGrants(String host, Collection<String> kinds) {
        List<Grant> grants = new ArrayList<>();
        grants.add(new Grant(prefix(Keys.text(Keys.host(host))), Permission.Type.READ));
        grants.add(new Grant(prefix(Keys.text(Keys.graphs(host))), Permission.Type.READ));
        for (ByteSequence own : new ByteSequence[] {Keys.alive(host), Keys.facts(host), Keys.status(host)}) {
            grants.add(new Grant(new Range(full(Keys.text(own)), null), Permission.Type.READWRITE));
        }
        grants.add(new Grant(prefix("world/hosts/" + host + "/"), Permission.Type.READWRITE));
        grants.add(new Grant(new Range(full(Keys.text(Keys.renewal(host))), null), Permission.Type.READWRITE));
        for (String kind : kinds) {
            grants.add(new Grant(prefix(Keys.text(Keys.exportedKind(kind)) + host + "/"), Permission.Type.READWRITE));
        }
        return grants;
    }

    /**
     * Deletes {@code host}'s user and role, so etcd refuses its next request, then what it holds in the fleet: the
     * lease of its registration is revoked (its alive key and lease-bound exports go at once; etcd lets a lease be
     * kept alive without a permission check, so a running agent would otherwise keep it) and any export left under
     * its name is deleted.
     *
     * @return false when there was no such host
     */
    public boolean removeHost(String host) throws EtcdUnreachableException {
        String user = userOf(host);
        boolean existed = ignoring("not found", auth.userDelete(bytes(user)));
        existed = ignoring("not found", auth.roleDelete(bytes(user))) || existed;
        withdraw(host); // also when a removal stopped half-way before
        return existed;
    }

    private void withdraw(String host) throws EtcdUnreachableException {
        for (KeyValue alive : etcd.await(etcd.kv().get(Keys.alive(host))).getKvs()) {
            if (alive.getLease() != 0) ignoring("not found", etcd.jetcd().getLeaseClient().revoke(alive.getLease()));
        }
        List<ByteSequence> exports = new ArrayList<>();
        Pages.forEach(etcd, Keys.EXPORTED, kv -> {
            Keys.ExportKey export = Keys.parseExportKey(kv.getKey());
            if (export != null && export.host().equals(host)) exports.add(kv.getKey());
        });
        for (ByteSequence export : exports) etcd.await(etcd.kv().delete(export));
    }

    private void user(String name) throws EtcdUnreachableException {
        // a password nobody knows: the user logs in by its certificate only (jetcd cannot send etcd 3.4's no-password option)
        byte[] password = new byte[32];
        RANDOM.nextBytes(password);
        ignoring("already exists", auth.userAdd(bytes(name), bytes(Base64.getEncoder().encodeToString(password))));
    }

    private void role(String name) throws EtcdUnreachableException {
        ignoring("already exists", auth.roleAdd(bytes(name)));
    }

    private void grantRole(String user, String role) throws EtcdUnreachableException {
        etcd.await(auth.userGrantRole(bytes(user), bytes(role)));
    }

    private void grant(String role, Range range, Permission.Type type) throws EtcdUnreachableException {
        etcd.await(auth.roleGrantPermission(bytes(role), range.key(), range.end(), type));
    }

    /** Grants {@code role} each of {@code wanted} not in {@code granted}; returns whether it granted any. */
    private boolean grantMissing(String role, Set<Grant> granted, List<Grant> wanted) throws EtcdUnreachableException {
        boolean changed = false;
        for (Grant grant : wanted) {
            if (granted.contains(grant)) continue;
            grant(role, grant.range(), grant.type());
            changed = true;
        }
        return changed;
    }

    /** What {@code role} grants now. */
    private Set<Grant> grants(String role) throws EtcdUnreachableException {
        Set<Grant> grants = new HashSet<>();
        for (Permission p : etcd.await(auth.roleGet(bytes(role))).getPermissions()) {
            grants.add(new Grant(new Range(p.getKey(), p.getRangeEnd()), p.getPermType()));
        }
        return grants;
    }

    /** True when {@code call} succeeded, false when it failed with a message containing {@code expected}. */
    private boolean ignoring(String expected, CompletableFuture<?> call) throws EtcdUnreachableException {
        try {
            etcd.await(call);
            return true;
        } catch (EtcdUnreachableException e) {
            if (String.valueOf(e.getMessage()).contains(expected)) return false;
            throw e;
        }
    }

    private Range prefix(String relative) {
        ByteSequence key = full(relative);
        return new Range(key, prefixEnd(key));
    }

    private ByteSequence full(String relative) {
        return bytes(namespace + relative);
    }

    /** The first key after every key starting with {@code prefix}: etcd's range end for a prefix. */
    private static ByteSequence prefixEnd(ByteSequence prefix) {
        byte[] end = prefix.getBytes();
        for (int i = end.length - 1; i >= 0; i--) {
            if (end[i] != (byte) 0xff) {
                end[i]++;
                return ByteSequence.from(java.util.Arrays.copyOf(end, i + 1));
            }
        }
        return ByteSequence.from(new byte[] {0}); // all keys
    }

    private static ByteSequence bytes(String text) {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    /** A key, or the keys from {@code key} up to {@code end} (excluded); an empty end is the one key. */
    private record Range(ByteSequence key, ByteSequence end) {
        Range {
            if (end == null) end = ByteSequence.EMPTY;
        }
    }

    /** What a role may do with a range of keys. */
    private record Grant(Range range, Permission.Type type) {}
}
