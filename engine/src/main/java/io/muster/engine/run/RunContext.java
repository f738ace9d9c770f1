package io.muster.engine.run;

import io.muster.engine.graph.Vertex;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.ResourceKind;
import io.muster.engine.world.World;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Override
    public Path stateDir() {
        Path dir = statePath();
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create state directory " + dir, e);
        }
    }

    @Override
    public Path statePath() {
        return options.prefix().resolve("state").resolve(kind).resolve(encode(id.substring(kind.length() + 1)));
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

    /** A resource name as one safe path segment: {@code /etc/motd} becomes {@code %2Fetc%2Fmotd}. */
    static String encode(String name) {
        StringBuilder out = new StringBuilder();
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (Character.isLetterOrDigit(c) && c < 128 || c == '-' || c == '_' || (c == '.' && out.length() > 0)) out.append(c);
            else out.append('%').append(String.format("%02X", b & 0xff));
        }
        return out.toString();
    }
}
