package io.muster.remote.install;

import static io.muster.remote.ssh.Shell.quote;

import io.muster.remote.ssh.SshConnection;
import io.muster.remote.ssh.SshException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The copy of muster's {@link Payload} on a host, under a directory named by the payload's digest
 * ({@code ~/.cache/muster/<digest>/}), so that a host which has it already is not sent it again.
 *
 * <p>A copy is made in a temporary directory beside it ({@code .tmp-<digest>-<random>}), checked there with
 * sha256sum, and renamed into place in one step, with a completion marker inside: an interrupted or corrupted copy
 * is never taken for a good one. When two runs race, the first rename wins and the other drops its copy. Temporary
 * directories left by interrupted runs, copies of their own ({@link #ofItsOwn}) and etcd certificates ({@link
 * RemoteCredentials}) they did not remove, go once they are a day old.
 */
public final class RemoteCache {
    /** Where the cache lives on a host: "~/" is the SSH user's home. */
    public static final String DEFAULT_ROOT = "~/.cache/muster";
    private static final String COMPLETE = ".muster-complete";
    private static final String LISTING = "muster.sha256";
    private static final String PLATFORM = "Linux x86_64";
    private static final int PRESENT = 0;
    private static final int ABSENT = 1;
    private static final int NOT_VERIFIED = 3;
    private static final int WRONG_PLATFORM = 4;

    private final String root;
    private final boolean ofItsOwn; // a directory of this cache's own inside another root, removed with it
    /** By host: temporary copies (and certificates) a dropped connection kept us from removing; the next {@link #ensure} there removes them. */
    private final Map<String, Set<String>> abandoned;

    public RemoteCache() {
        this(DEFAULT_ROOT);
    }

    /** A cache under {@code root} on the hosts (absolute, or "~/..." for the SSH user's home). */
    public RemoteCache(String root) {
        this(root, false, new ConcurrentHashMap<>());
    }

    private RemoteCache(String root, boolean ofItsOwn, Map<String, Set<String>> abandoned) {
        this.root = root;
        this.ofItsOwn = ofItsOwn;
        this.abandoned = abandoned;
    }

    /**
     * A cache of its own named {@code name} inside this one, for a copy that is removed after one use
     * ({@code --no-caching}): two such uses on one host (two names of one machine) never remove each other's
     * copy. Its {@link #remove} takes this cache's directory away too when nothing else is left in it.
     */
    public RemoteCache ofItsOwn(String name) {
        if (name.isEmpty() || name.contains("/") || name.startsWith(".tmp-")) throw new IllegalArgumentException("not a cache name: " + name);
        return new RemoteCache(root + "/." + name, true, abandoned);
    }

    /**
     * Makes sure the host has {@code payload}, copying it when it has not. When it has, one command is all it costs
     * (the platform check, the clean-up of stale copies and the look-up go together).
     */
    public Installed ensure(SshConnection ssh, Payload payload) throws SshException, InterruptedException, IOException {
        String digest = payload.digest();
        String tmpName = ".tmp-" + digest + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        SortedSet<String> dirs = new TreeSet<>();
        for (PayloadFile file : payload.files()) {
            String path = tmpName + "/" + file.name();
            dirs.add(quote(path.substring(0, path.lastIndexOf('/'))));
        }
        Set<String> left = abandoned.remove(ssh.destination().name());
        List<String> output = new ArrayList<>();
        int state;
        try {
            state = ssh.exec(String.join("\n",
                "printf '%s\\n' \"$(uname -sm)\" \"$HOME\"",
                left == null ? ":" : "rm -rf " + String.join(" ", left.stream().map(io.muster.remote.ssh.Shell::quote).toList()),
                "[ \"$(uname -sm)\" = " + quote(PLATFORM) + " ] || exit " + WRONG_PLATFORM,
                "root=" + (root.startsWith("~/") ? "\"$HOME\"/" + quote(root.substring(2)) : quote(root)),
                "mkdir -p \"$root\" && cd \"$root\" || exit 2",
                "find . -mindepth 1 -maxdepth 1 \\( -name '.tmp-*' -o -name '.run-*' -o -name '.tls-*' \\) -mmin +1440 -exec rm -rf {} + 2>/dev/null",
                "test -f " + quote(digest + "/" + COMPLETE) + " && exit " + PRESENT,
                "mkdir -p " + String.join(" ", dirs) + " || exit 2",
                "exit " + ABSENT), output::add);
        } catch (SshException e) {
            if (left != null) left.forEach(tmp -> abandon(ssh, tmp));
            throw e;
        }
        if (state == WRONG_PLATFORM && !output.isEmpty()) {
            throw new SshException(ssh.destination().name() + ": the host runs " + output.getFirst() + ", but muster's runtime is built for "
                    + PLATFORM + " only", false);
        }
        if ((state != PRESENT && state != ABSENT) || output.size() < 2) throw failed(ssh, "cannot prepare the cache " + root, output);
        String cacheRoot = root.startsWith("~/") ? output.get(1) + root.substring(1) : root;
        String dir = cacheRoot + "/" + digest;
        if (state == PRESENT) return new Installed(dir, false, 0);
        String tmp = cacheRoot + "/" + tmpName;
        try {
            long bytes = copy(ssh, payload, tmp);
            install(ssh, tmp, dir);
            return new Installed(dir, true, bytes);
        } catch (SshException e) {
            discard(ssh, tmp);
            throw e;
        }
    }

    /**
     * Removes the copy (renamed aside first, so a removal cut short leaves no half directory under the good name).
     * A copy of its own ({@link #ofItsOwn}) takes with it the copy of the same payload an earlier run left in the
     * cache it lies in: after {@code --no-caching} no copy of muster stays on the host.
     */
    public void remove(SshConnection ssh, Installed installed) throws SshException, InterruptedException {
        String dir = installed.directory();
        String cacheRoot = parent(dir);
        List<String> script = new ArrayList<>();
        script.add(removal(dir, cacheRoot));
        script.add("rmdir " + quote(cacheRoot) + " 2>/dev/null");
        if (ofItsOwn) {
            String outer = parent(cacheRoot);
            script.add(removal(outer + dir.substring(dir.lastIndexOf('/')), outer));
            script.add("rmdir " + quote(outer) + " 2>/dev/null");
        }
        script.add("exit 0");
        List<String> output = new ArrayList<>();
        if (ssh.exec(String.join("\n", script), output::add) != 0) throw failed(ssh, "cannot remove " + dir, output);
    }

    /** The shell line that removes {@code dir} of {@code cacheRoot}, when it is there. */
    private static String removal(String dir, String cacheRoot) {
        String gone = cacheRoot + "/.tmp-removed-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        return "if [ -e " + quote(dir) + " ]; then mv -T " + quote(dir) + " " + quote(gone) + " && rm -rf " + quote(gone) + " || exit 1; fi";
    }

    private static String parent(String path) {
        return path.substring(0, path.lastIndexOf('/'));
    }

    /** Copies the payload's files and their sha256sum listing into {@code tmp}, whose directories exist. */
    private static long copy(SshConnection ssh, Payload payload, String tmp) throws SshException, InterruptedException, IOException {
        long bytes = 0;
        StringBuilder listing = new StringBuilder();
        for (PayloadFile file : payload.files()) {
            ssh.upload(file.local(), tmp + "/" + file.name(), file.executable() ? 0755 : 0644);
            bytes += file.size();
            listing.append(file.listingLine());
        }
        Path local = Files.createTempFile("muster-payload-", ".sha256");
        try {
            Files.writeString(local, listing, StandardCharsets.UTF_8);
            ssh.upload(local, tmp + "/" + LISTING, 0644);
        } finally {
            Files.deleteIfExists(local);
        }
        return bytes;
    }

    /** Verifies the copy, then renames it into place; a copy that lost the race to another run is dropped. */
    private static void install(SshConnection ssh, String tmp, String dir) throws SshException, InterruptedException {
        String stale = tmp + "-stale";
        List<String> output = new ArrayList<>();
        int status = ssh.exec(String.join("\n",
                "cd " + quote(tmp) + " || exit 2",
                "sha256sum -c --quiet " + LISTING + " || exit " + NOT_VERIFIED,
                "if [ -d runtime/bin ]; then chmod 755 runtime/bin/* || exit 2; fi",
                "touch " + COMPLETE + " && cd / || exit 2",
                "mv -T " + quote(tmp) + " " + quote(dir) + " 2>/dev/null && exit 0",
                // the name is taken: by another run's good copy (keep it), or by a directory without the marker (replace it)
                "if [ -f " + quote(dir + "/" + COMPLETE) + " ]; then rm -rf " + quote(tmp) + "; exit 0; fi",
                "mv -T " + quote(dir) + " " + quote(stale) + " && mv -T " + quote(tmp) + " " + quote(dir) + " && rm -rf " + quote(stale)),
                output::add);
        if (status == NOT_VERIFIED) throw failed(ssh, "the copy in " + tmp + " does not match muster's payload", output);
        if (status != 0) throw failed(ssh, "cannot move the copy into " + dir, output);
    }

    private void discard(SshConnection ssh, String tmp) throws InterruptedException {
        try {
            ssh.exec("rm -rf " + quote(tmp), line -> {});
        } catch (SshException e) {
            abandon(ssh, tmp); // the connection is gone: the next ensure on that host removes it (or a later run, after a day)
        }
    }

    private void abandon(SshConnection ssh, String tmp) {
        abandon(ssh.destination().name(), tmp);
    }

    /** {@code path}, a directory of this cache on {@code host}, may be left there by a dropped connection: the next {@link #ensure} there removes it. */
    public void abandon(String host, String path) {
        abandoned.computeIfAbsent(host, h -> ConcurrentHashMap.newKeySet()).add(path);
    }

    private static SshException failed(SshConnection ssh, String what, List<String> output) {
        return new SshException(ssh.destination().name() + ": " + what + (output.isEmpty() ? "" : ": " + String.join("; ", output)), false);
    }
}
