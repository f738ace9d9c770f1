package io.muster.engine.cache;

import io.muster.engine.codec.GraphCodec;
import io.muster.engine.codec.InvalidGraphException;
import io.muster.engine.compile.CompileOptions;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles a manifest, or gives the graph it compiled to last time when nothing it read has changed since: one
 * entry per manifest path in a directory of the state prefix, muster's alone (0700, entries 0600, written to a temp
 * file and renamed, never through a link; see {@link AtomicFiles}). The key is the muster build, the manifest's
 * path, the external data, the apply depth and the kinds, as given; then each input the last compilation read
 * ({@link CompileInputs}) is read again and compared. A miss compiles and rewrites the entry; an entry that does not
 * read back whole (cut short, another format, a graph this build cannot decode) is a miss, said at debug level.
 *
 * <p>A miss encodes and writes the entry on a thread of its own, while the caller runs the graph (the graph is not
 * changed by running it); {@link #close} waits for that write, so a process that closes the cache before it exits
 * never leaves a temp file behind, and the rename of {@link AtomicFiles} never shows half an entry.
 */
public final class GraphCache implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("muster.cache");

    /** How a graph came to be: decoded from the cache, compiled (and cached), or compiled without asking it. */
    public enum Outcome {
        HIT, MISS, OFF;

        /** As the JSON report says it. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A graph, and whether the cache gave it. */
    public record Compiled(Graph graph, Outcome outcome) {}

    private final Path directory;
    private final String build;
    /** The entry being written after a miss, or null. */
    private Thread writing;

    /**
     * @param directory where entries are kept (made 0700 when first written)
     * @param build what tells this muster build from others (version and commit): an entry of another build is a miss
     */
    public GraphCache(Path directory, String build) {
        this.directory = directory.toAbsolutePath().normalize();
        this.build = build;
    }

    /** The graph of {@code manifest}: the cached one when its inputs are unchanged, else compiled and cached. */
    public Compiled compile(Path manifest, CompileOptions options) throws ManifestException {
        Path file = entry(manifest);
        String key = key(manifest, options);
        Graph cached = load(file, key, manifest, options);
        if (cached != null) return new Compiled(cached, Outcome.HIT);
        return new Compiled(compileAndStore(manifest, options, file, key), Outcome.MISS);
    }

    /** Compiles {@code manifest} without reading the cache (--no-cache), and caches the result for the next run. */
    public Compiled recompile(Path manifest, CompileOptions options) throws ManifestException {
        LOG.debug("compiled-graph cache: not read (--no-cache); compiling {}", manifest);
        return new Compiled(compileAndStore(manifest, options, entry(manifest), key(manifest, options)), Outcome.OFF);
    }

    private Graph load(Path file, String key, Path manifest, CompileOptions options) {
        long started = System.nanoTime();
        byte[] bytes;
        try {
            bytes = AtomicFiles.readPrivate(file);
        } catch (IOException e) {
            LOG.debug("compiled-graph cache: miss, cannot read {}: {}", file, e.toString());
            return null;
        }
        if (bytes == null) {
            LOG.debug("compiled-graph cache: miss, no entry for {} yet", manifest);
            return null;
        }
        CacheEntry entry;
        try {
            entry = CacheEntry.read(bytes);
        } catch (CacheEntry.Corrupt e) {
            LOG.debug("compiled-graph cache: miss, the entry {} is corrupt ({}); compiling and rewriting it", file, e.getMessage());
            return null;
        }
        if (!entry.key().equals(key)) {
            LOG.debug("compiled-graph cache: miss, another muster build or other command-line data than {}'s last compile", manifest);
            return null;
        }
        String changed = entry.inputs().changed(options.facts(), options.env());
        if (changed != null) {
            LOG.debug("compiled-graph cache: miss, {} changed since {} was last compiled", changed, manifest);
            return null;
        }
        try {
            Graph graph = GraphCodec.decode(entry.graph(), bundle(manifest), options.kinds());
            LOG.debug("compiled-graph cache: hit for {} ({} resources, {} bytes, read and checked in {} ms)", manifest, graph.vertices().size(),
                    bytes.length, (System.nanoTime() - started) / 1_000_000);
            return graph.compiledFrom(new LinkedHashSet<>(entry.inputs().manifests()), graph.bundle());
        } catch (InvalidGraphException | RuntimeException e) {
            LOG.debug("compiled-graph cache: miss, the entry {} holds no graph this build reads ({}); compiling and rewriting it", file,
                    e.toString());
            return null;
        }
    }

    private Graph compileAndStore(Path manifest, CompileOptions options, Path file, String key) throws ManifestException {
        RecordingMap<Object> facts = new RecordingMap<>(options.facts());
        RecordingMap<String> env = new RecordingMap<>(options.env());
        Set<Path> read = new LinkedHashSet<>();
        Graph graph = new ManifestCompiler(options.recording(facts, env, path -> {
            synchronized (read) {
                read.add(path);
            }
        })).compile(manifest);
        List<Path> manifests = new ArrayList<>();
        manifests.add(manifest.toAbsolutePath().normalize());
        manifests.addAll(graph.manifests());
        CompileInputs inputs = CompileInputs.hash(List.copyOf(new LinkedHashSet<>(manifests)), List.copyOf(read), facts.reads(), env.reads());
        awaitWriting();
        writing = Thread.ofPlatform().name("graph cache write").start(() -> store(file, key, inputs, graph));
        return graph;
    }

    private static void store(Path file, String key, CompileInputs inputs, Graph graph) {
        try {
            AtomicFiles.writePrivate(file, new CacheEntry(key, inputs, GraphCodec.encode(graph).bytes()).bytes());
        } catch (IOException | RuntimeException e) { // a graph the codec cannot carry, a prefix not writable: compiled all the same
            LOG.debug("compiled-graph cache: cannot write {}: {}", file, e.toString());
        }
    }

    /** Waits until the entry a miss is writing is written (or failed, said at debug level). */
    @Override
    public void close() {
        awaitWriting();
    }

    private void awaitWriting() {
        if (writing == null) return;
        boolean interrupted = false;
        while (true) {
            try {
                writing.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // a stop signal: the write is short, and stopping it would leave its temp file
            }
        }
        writing = null;
        if (interrupted) Thread.currentThread().interrupt();
    }

    /** The entry of {@code manifest}: one per path, so the cache holds as many entries as manifests applied. */
    private Path entry(Path manifest) {
        return directory.resolve(sha256(manifest.toAbsolutePath().normalize().toString()).substring(0, 32) + ".graph");
    }

    /** What the command line and the build make of a compilation: an entry whose key differs is of another. */
    private String key(Path manifest, CompileOptions options) {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("build", build);
        key.put("manifest", manifest.toAbsolutePath().normalize().toString());
        key.put("data", options.data());
        key.put("max_apply_depth", options.maxApplyDepth());
        key.put("kinds", List.copyOf(new TreeSet<>(options.kinds().names())));
        return Json.pretty(key);
    }

    private static Path bundle(Path manifest) {
        return manifest.toAbsolutePath().normalize().getParent();
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
