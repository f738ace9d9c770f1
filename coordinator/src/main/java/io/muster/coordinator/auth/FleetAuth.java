package io.muster.coordinator.auth;

import io.etcd.jetcd.Auth;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.auth.Permission;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * The fleet's etcd users and roles, managed as etcd's {@code root} (the client certificate whose common name is
 * root). Clients log in by certificate: etcd takes the common name as the user. Every key is under the namespace.
 *
 * <ul>
 *   <li>{@value #COORDINATOR}: reads and writes the whole namespace (graphs, pointers, deploys, the election).
 *   <li>{@value #HOSTS}, granted to every host: reads {@code graphs/}, {@code blobs/}, {@code deploys/} and {@code
 *       exported/}; reads and writes {@code world/shared/}, the World's keys shared by all hosts.
 *   <li>{@code host-<name>}, the user and role of one host: reads {@code hosts/<name>/} (its graph pointer),
 *       writes its {@code alive}, {@code facts} and {@code status}, its {@code world/hosts/<name>/} and {@code
 *       exported/<kind>/<name>/} for each resource kind this coordinator knows (etcd grants key ranges, and the host
 *       is in the middle of an export's key: one range per kind).
 * </ul>
 *
 * Each call is idempotent: run again, it leaves what is there and adds what is missing.
 */
public final class FleetAuth {
    public static final String ROOT = "root";
    public static final String COORDINATOR = "muster-coordinator";
    public static final String HOSTS = "muster-host";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Etcd etcd;
    private final Auth auth;
    private final String namespace;

    /** @param root a client logged in as etcd's root user */
    public FleetAuth(Etcd root) {
        this.etcd = root;
        this.auth = root.jetcd().getAuthClient();
        this.namespace = root.options().namespace();
    }

    /** The etcd user (a client certificate's common name) of {@code host}. */
    public static String hostUser(String host) {
        return "host-" + Keys.checkHost(host);
    }

    /** The root and coordinator users, the hosts' shared role, and etcd's auth switched on. */
    public void setUp() throws EtcdUnreachableException {
        user(ROOT);
        grantRole(ROOT, ROOT);
        role(COORDINATOR);
        grant(COORDINATOR, prefix(""), Permission.Type.READWRITE);
        user(COORDINATOR);
        grantRole(COORDINATOR, COORDINATOR);
        role(HOSTS);
        for (String read : new String[] {"graphs/", "blobs/", "deploys/", "exported/"}) grant(HOSTS, prefix(read), Permission.Type.READ);
        grant(HOSTS, prefix("world/shared/"), Permission.Type.READWRITE);
        etcd.await(auth.authEnable());
    }

    /** {@code host}'s user and role, allowed to export resources of {@code kinds}. */
    public void addHost(String host, Collection<String> kinds) throws EtcdUnreachableException {
        String user = hostUser(host);
        role(user);
        grant(user, prefix(Keys.text(Keys.host(host))), Permission.Type.READ);
        for (ByteSequence own : new ByteSequence[] {Keys.alive(host), Keys.facts(host), Keys.status(host)}) {
            grant(user, new Range(full(Keys.text(own)), null), Permission.Type.READWRITE);
        }
        grant(user, prefix("world/hosts/" + host + "/"), Permission.Type.READWRITE);
        for (String kind : kinds) {
            grant(user, prefix(Keys.text(Keys.exportedKind(kind)) + host + "/"), Permission.Type.READWRITE);
        }
        user(user);
        grantRole(user, HOSTS);
        grantRole(user, user);
    }

    /**
     * Deletes {@code host}'s user and role: etcd checks permissions on every request, so its next write is
     * refused. Its lease-bound keys go when the lease expires.
     *
     * @return false when there was no such host
     */
    public boolean removeHost(String host) throws EtcdUnreachableException {
        String user = hostUser(host);
        boolean existed = ignoring("not found", auth.userDelete(bytes(user)));
        return ignoring("not found", auth.roleDelete(bytes(user))) || existed;
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
        etcd.await(auth.roleGrantPermission(bytes(role), range.key(), range.end() == null ? ByteSequence.EMPTY : range.end(), type));
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

    /** A key, or the keys from {@code key} up to {@code end} (excluded); a null end is the one key. */
    private record Range(ByteSequence key, ByteSequence end) {}
}
