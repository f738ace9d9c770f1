package io.muster.remote.ssh;

import com.jcraft.jsch.AgentIdentityRepository;
import com.jcraft.jsch.AgentProxyException;
import com.jcraft.jsch.Identity;
import com.jcraft.jsch.IdentityRepository;
import com.jcraft.jsch.JSch;
import com.jcraft.jsch.JSchException;
import com.jcraft.jsch.SSHAgentConnector;
import com.jcraft.jsch.UnixDomainSocketFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Vector;

/**
 * The keys offered to one host, in OpenSSH's order: the -i files, then the ssh-agent's keys, then the config's
 * IdentityFile entries, then ~/.ssh/id_ed25519, id_ecdsa and id_rsa where present. It remembers what it offered, so
 * a refused login can say what was tried.
 */
final class LoginKeys implements IdentityRepository {
    private static final List<String> DEFAULT_KEYS = List.of("id_ed25519", "id_ecdsa", "id_rsa");

    private final List<Identity> explicit;
    private final IdentityRepository agent;
    private final Path agentSocket;
    private final List<Identity> files;
    private final List<String> skipped;
    private final List<String> offered = new ArrayList<>();

    private LoginKeys(List<Identity> explicit, IdentityRepository agent, Path agentSocket, List<Identity> files, List<String> skipped) {
        this.explicit = explicit;
        this.agent = agent;
        this.agentSocket = agentSocket;
        this.files = files;
        this.skipped = skipped;
    }

    /**
     * Reads the keys for {@code login}. A -i file that is missing or not a key is an error; a config or default key
     * that cannot be read is passed over, as ssh does. Passphrase-protected keys are offered only when a passphrase
     * may be asked ({@code mayAsk}).
     */
    static LoginKeys gather(SshSettings settings, Login login, LocalUser me, boolean mayAsk) throws SshException {
        List<String> skipped = new ArrayList<>();
        List<Identity> explicit = new ArrayList<>();
        for (Path key : settings.identities()) {
            if (!Files.isRegularFile(key)) throw new SshException("-i " + key + ": no such file", false);
            KeyRead read = read(key);
            if (read.identity() == null) throw new SshException("-i " + key + ": not a private key muster can read (" + read.error() + ")", false);
            if (usable(read.identity(), key, mayAsk, skipped)) explicit.add(read.identity());
        }
        Set<Path> others = new LinkedHashSet<>(login.configIdentities());
        for (String name : DEFAULT_KEYS) others.add(me.dotSsh().resolve(name));
        others.removeAll(settings.identities());
        List<Identity> files = new ArrayList<>();
        for (Path key : others) {
            if (!Files.isRegularFile(key)) continue;
            KeyRead read = read(key);
            if (read.identity() == null) skipped.add(key + " (unreadable: " + read.error() + ")");
            else if (usable(read.identity(), key, mayAsk, skipped)) files.add(read.identity());
        }
        IdentityRepository agent = me.agentSocket() == null ? null : agent(me.agentSocket());
        return new LoginKeys(explicit, agent, me.agentSocket(), files, skipped);
    }

    private static boolean usable(Identity identity, Path key, boolean mayAsk, List<String> skipped) {
        if (!identity.isEncrypted() || mayAsk) return true;
        skipped.add(key + " (passphrase-protected: load it into ssh-agent, or --allow-interactive asks for the passphrase)");
        return false;
    }

    private static IdentityRepository agent(Path socket) throws SshException {
        try {
            return new AgentIdentityRepository(new SSHAgentConnector(new UnixDomainSocketFactory(), socket));
        } catch (AgentProxyException e) {
            throw new SshException("ssh-agent at " + socket + ": " + e.getMessage(), false, e);
        }
    }

    /** A key file read: its identity, or why it could not be read. */
    private record KeyRead(Identity identity, String error) {}

    private static KeyRead read(Path key) {
        JSch keyring = new JSch();
        try {
            keyring.addIdentity(key.toString());
            return new KeyRead(keyring.getIdentityRepository().getIdentities().getFirst(), null);
        } catch (JSchException e) {
            return new KeyRead(null, e.getMessage());
        }
    }

    /** What was offered (or passed over, and why), for the message of a refused login. */
    synchronized String tried() {
        List<String> all = new ArrayList<>(offered);
        all.addAll(skipped);
        return all.isEmpty() ? "no key" : String.join(", ", all);
    }

    @Override
    public synchronized Vector<Identity> getIdentities() {
        offered.clear();
        Vector<Identity> all = new Vector<>();
        all.addAll(note(explicit, "-i "));
        if (agent != null) {
            List<Identity> agentKeys = agentKeys();
            offered.add("ssh-agent at " + agentSocket + " (" + agentKeys.size() + (agentKeys.size() == 1 ? " key)" : " keys)"));
            all.addAll(agentKeys);
        }
        all.addAll(note(files, ""));
        return all;
    }

    private List<Identity> note(List<Identity> identities, String prefix) {
        for (Identity identity : identities) offered.add(prefix + identity.getName());
        return identities;
    }

    private List<Identity> agentKeys() {
        try {
            return agent.getIdentities();
        } catch (RuntimeException e) {
            return List.of(); // an agent that does not answer has no keys to offer
        }
    }

    @Override
    public String getName() {
        return "muster login keys";
    }

    @Override
    public int getStatus() {
        return RUNNING;
    }

    @Override
    public boolean add(byte[] identity) {
        return false;
    }

    @Override
    public boolean remove(byte[] blob) {
        return false;
    }

    @Override
    public void removeAll() {
    }
}
