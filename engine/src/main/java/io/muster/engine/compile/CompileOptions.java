package io.muster.engine.compile;

import io.muster.engine.manifest.ManifestSource;
import io.muster.engine.resource.Kinds;
import io.muster.engine.util.FileReads;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a compilation sees besides the manifest: the host it is for (its name, which the patterns of a
 * {@code nodes:} section match, and its facts), the environment, external data ({@code --data}), which wins
 * over anything a manifest sets, how many manifests a chain of {@code apply} resources may nest
 * ({@code --max-apply-depth}, the manifest given counting as one), the resource kinds a manifest may use, and where
 * the files it reads besides its manifests are noted (for a cache of the graph; nowhere by default), and where its
 * manifests' YAML comes from (their files, or a reading shared by many compilations of one tree).
 */
public final class CompileOptions {
    public static final int DEFAULT_MAX_APPLY_DEPTH = 10;
    /** The fact that names this host when no name is given: what an agent's {@code --host} defaults to. */
    public static final String HOST_FACT = "fqdn";

    /** The fleet host's name; null for this host, whose name is a fact read when needed. */
    private final String host;
    private final Map<String, Object> facts;
    private final Map<String, String> env;
    private final Map<String, Object> data;
    private final int maxApplyDepth;
    private final Kinds kinds;
    private final FileReads reads;
    private final ManifestSource manifests;

    private CompileOptions(String host, Map<String, Object> facts, Map<String, String> env, Map<String, Object> data,
                           int maxApplyDepth, Kinds kinds, FileReads reads, ManifestSource manifests) {
        if (maxApplyDepth < 1) throw new IllegalArgumentException("--max-apply-depth must be at least 1, got " + maxApplyDepth);
        this.host = host;
        // facts are gathered lazily, and a cache notes which facts and variables are read: wrap, never copy;
        // data may hold YAML nulls, which Map.copyOf refuses
        this.facts = Collections.unmodifiableMap(facts);
        this.env = Collections.unmodifiableMap(env);
        this.data = Collections.unmodifiableMap(new LinkedHashMap<>(data));
        this.maxApplyDepth = maxApplyDepth;
        this.kinds = kinds;
        this.reads = reads;
        this.manifests = manifests;
    }

    /** For a host of the fleet: its name and the facts its agent published. */
    public CompileOptions(String host, Map<String, Object> facts, Map<String, String> env, Map<String, Object> data, int maxApplyDepth,
                          Kinds kinds) {
        this(Objects.requireNonNull(host, "host"), facts, env, data, maxApplyDepth, kinds, FileReads.NONE, ManifestSource.FILES);
    }

    /**
     * For this host ({@code apply}, {@code run}, {@code plan}…): its name is its {@link #HOST_FACT} fact, read only when a
     * {@code nodes:} section needs it, since gathering it may wait for DNS.
     */
    public CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data, int maxApplyDepth, Kinds kinds) {
        this(null, facts, env, data, maxApplyDepth, kinds, FileReads.NONE, ManifestSource.FILES);
    }

    public CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data, int maxApplyDepth) {
        this(facts, env, data, maxApplyDepth, Kinds.installed());
    }

    public CompileOptions(Map<String, Object> facts, Map<String, String> env, Map<String, Object> data) {
        this(facts, env, data, DEFAULT_MAX_APPLY_DEPTH);
    }

    public CompileOptions withKinds(Kinds more) {
        return new CompileOptions(host, facts, env, data, maxApplyDepth, more, reads, manifests);
    }

    /**
     * These options, reading {@code otherFacts} and {@code otherEnv} instead (views that note what is read) and
     * noting the files read in {@code otherReads}.
     */
    public CompileOptions recording(Map<String, Object> otherFacts, Map<String, String> otherEnv, FileReads otherReads) {
        return new CompileOptions(host, otherFacts, otherEnv, data, maxApplyDepth, kinds, otherReads, manifests);
    }

    /** These options, taking each manifest's YAML from {@code source} (a tree's manifests read once, for many hosts). */
    public CompileOptions withManifests(ManifestSource source) {
        return new CompileOptions(host, facts, env, data, maxApplyDepth, kinds, reads, source);
    }

    /** The name of the host the manifest is compiled for. */
    public String host() {
        return host != null ? host : hostFact(facts);
    }

    public Map<String, Object> facts() {
        return facts;
    }

    public Map<String, String> env() {
        return env;
    }

    public Map<String, Object> data() {
        return data;
    }

    public int maxApplyDepth() {
        return maxApplyDepth;
    }

    public Kinds kinds() {
        return kinds;
    }

    public FileReads reads() {
        return reads;
    }

    public ManifestSource manifests() {
        return manifests;
    }

    private static String hostFact(Map<String, Object> facts) {
        Object name = facts.get(HOST_FACT);
        if (name == null) throw new IllegalStateException("no host name: the facts have no " + HOST_FACT);
        return name.toString();
    }
}
