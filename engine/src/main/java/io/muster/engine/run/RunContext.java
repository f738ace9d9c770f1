package io.muster.engine.run;

import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.world.World;
import java.io.IOException;
import java.io.UncheckedIOException;
import io.muster.engine.util.fs.TrustedPath;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The {@link Context} of one resource in one run. */
final class RunContext implements Context {
    private final RunOptions options;
    private final RunShared shared;
    private final ResourceKind resourceKind;
    private final String kind;
    private final String id;
    private final String manifest;
    private final Path manifestDirectory;
    private final boolean refresh;
    private final boolean valuesRead;

    RunContext(RunOptions options, RunShared shared, Vertex v, boolean refresh, boolean valuesRead) {
        this.options = options;
        this.shared = shared;
        this.resourceKind = v.kind();
        this.kind = v.kind().name();
        this.id = v.id();
        this.manifest = v.origin().childManifest();
        this.manifestDirectory = v.params().directory();
        this.refresh = refresh;
        this.valuesRead = valuesRead;
    }

    @Override
    public boolean valuesRead() {
        return valuesRead;
    }

    @Override
    public String hostname() {
        return options.hostname();
    }

    /** Made 0700 (with any missing parent), whatever the umask: state files repeat secrets. */
    @Override
    public Path stateDir() {
        Path dir = statePath();
        try {
            Path legacy = legacyStatePath();
            if (legacy != null && dir.equals(legacy)) {
                dir = hashedStatePath();
                Files.move(legacy, dir, StandardCopyOption.ATOMIC_MOVE);
            }
            TrustedPath.createPrivate(dir).close();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create state directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The state directory; one a version before 0.1 named after the whole encoded id, until it is moved. */
    @Override
    public Path statePath() {
        Path hashed = hashedStatePath();
        Path legacy = legacyStatePath();
        return legacy != null && !Files.exists(hashed) && Files.isDirectory(legacy, LinkOption.NOFOLLOW_LINKS) ? legacy : hashed;
    }

    /** Named by a hash of the id, so that no id is too long; a readable start of the encoded id comes first. */
    private Path hashedStatePath() {
        return kindStateDir().resolve(StateNames.of(name()));
    }

    private Path legacyStatePath() {
        String encoded = StateNames.encode(name());
        return encoded.length() > StateNames.MAX_NAME ? null : kindStateDir().resolve(encoded);
    }

    private Path kindStateDir() {
        return options.prefix().resolve("state").resolve(kind);
    }

    private String name() {
        return id.substring(kind.length() + 1);
    }

    @Override
    public Path manifestDirectory() {
        return manifestDirectory;
    }

    @Override
    public World world() {
        return shared.world();
    }

    @Override
    public <S> S session(Class<S> type) throws IOException, InterruptedException {
        return shared.sessions().of(resourceKind, type);
    }

    /**
     * Logging starts only when a resource logs: most runs never pay for it. Each resource runs on a
     * virtual thread of its own, so the id (and the child manifest it came from) put in the MDC label
     * exactly this resource's lines.
     */
    @Override
    public Logger log() {
        return log(kind, id, manifest);
    }

    /** The logger of a resource's lines, its id (and child manifest) in the MDC; also for its watch. */
    static Logger log(String kind, String id, String manifest) {
        MDC.put("resource", id);
        if (manifest != null) MDC.put("manifest", manifest);
        return LoggerFactory.getLogger("muster." + kind);
    }

    @Override
    public boolean refresh() {
        return refresh;
    }

    @Override
    public boolean diffs() {
        return options.diffs();
    }

    @Override
    public boolean debug() {
        return options.debug();
    }
}
