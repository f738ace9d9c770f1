package io.muster.coordinator.deploy;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.muster.agent.etcd.ContentStore;
import io.muster.agent.etcd.Etcd;
import io.muster.agent.etcd.EtcdUnreachableException;
import io.muster.agent.etcd.Keys;
import io.muster.proto.fleet.BundleFile;
import io.muster.proto.fleet.Deploy;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Publishes a bundle as a new deploy: its files stored by content (so a file no deploy changed is not stored
 * again), as blobs every host reads, or its manifests and data where only coordinators read ({@link
 * Bundle.File#compileOnly()}), then {@code deploys/<id>} and {@code deploys/current} in one transaction that claims the
 * next id: two deploys at once get distinct ids, and hosts never see a current deploy whose record is missing.
 */
public final class Deployer {
    /** A deploy's record must fit one etcd request with room to spare. */
    static final int MAX_RECORD_BYTES = 1 << 20;

    private final Etcd etcd;
    private final ContentStore store;
    private final DeployHistory history;
    private final Clock clock;

    public Deployer(Etcd etcd, Clock clock) {
        this.etcd = etcd;
        this.store = new ContentStore(etcd);
        this.history = new DeployHistory(etcd);
        this.clock = clock;
    }

    /**
     * What else the transaction that claims a deploy's id writes, and what it depends on: asked again before each
     * attempt, so it reads what it needs anew when another deploy came first.
     */
    public interface Claim {
        Claim NONE = id -> new Extra(List.of(), List.of());

        Extra extra(long id) throws EtcdUnreachableException, DeployException;
    }

    /** Compares the claiming transaction also makes, and what it also puts. */
    public record Extra(List<Cmp> compares, List<Op> puts) {}

    /** What a deploy did: its id, and how many of its files were stored now (the others were there already). */
    public record Published(long id, int stored, int files) {}

    /**
     * @param who {@code user@host} that deploys
     * @throws DeployException when a file changed while it was read, or the listing is too big for etcd
     */
    public Published publish(Bundle bundle, String message, String who) throws EtcdUnreachableException, DeployException {
        return publish(bundle, message, who, Claim.NONE);
    }

    /** As {@link #publish(Bundle, String, String)}, writing what {@code claim} adds in the transaction that claims the id. */
    public Published publish(Bundle bundle, String message, String who, Claim claim) throws EtcdUnreachableException, DeployException {
        Deploy.Builder record = Deploy.newBuilder().setCreated(clock.millis()).setMessage(message).setWho(who).setManifest(bundle.manifest());
        int stored = 0;
        for (Bundle.File file : bundle.files()) {
            if (upload(file)) stored++;
            record.addFiles(BundleFile.newBuilder().setPath(file.path()).setSha256(file.sha256()).setSize(file.size())
                    .setExecutable(file.executable()).setCompileOnly(file.compileOnly()));
        }
        while (true) {
            long id = history.last() + 1;
            byte[] bytes = record.setId(id).build().toByteArray();
            if (bytes.length > MAX_RECORD_BYTES) {
                throw new DeployException(bundle.root() + ": too many files for one deploy (" + bundle.files().size()
                        + "); list what it need not ship in " + bundle.root().resolve(IgnoreRules.FILE));
            }
            ByteSequence key = Keys.deploy(id);
            Extra extra = claim.extra(id);
            List<Cmp> compares = new ArrayList<>(extra.compares());
            compares.add(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.createRevision(0)));
            List<Op> puts = new ArrayList<>(extra.puts());
            puts.add(Op.put(key, ByteSequence.from(bytes), PutOption.DEFAULT));
            puts.add(Op.put(Keys.CURRENT_DEPLOY, DeployHistory.currentValue(id), PutOption.DEFAULT));
            boolean claimed = etcd.await(etcd.kv().txn().If(compares.toArray(Cmp[]::new)).Then(puts.toArray(Op[]::new)).commit()).isSucceeded();
            if (claimed) return new Published(id, stored, bundle.files().size());
        }
    }

    private boolean upload(Bundle.File file) throws EtcdUnreachableException, DeployException {
        ByteSequence key = file.compileOnly() ? Keys.manifest(file.sha256()) : Keys.blob(file.sha256());
        if (store.contains(key)) return false;
        byte[] content;
        try {
            content = Files.readAllBytes(file.source());
        } catch (IOException e) {
            throw new DeployException(file.source() + ": cannot read (" + e.getMessage() + ")");
        }
        if (!ContentStore.sha256(content).equals(file.sha256())) {
            throw new DeployException(file.source() + ": changed while it was deployed; deploy again");
        }
        return store.put(key, content);
    }
}
