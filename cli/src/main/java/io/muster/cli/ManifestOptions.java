package io.muster.cli;

import io.muster.engine.cache.GraphCache;
import io.muster.engine.compile.Assignments;
import io.muster.engine.compile.CompileOptions;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.facts.Facts;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.manifest.Problem;
import io.muster.engine.util.Maps;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** The manifest and what it is compiled with: external data, fact overrides, how deep applies may nest. */
final class ManifestOptions {
    @Parameters(index = "0", paramLabel = "FILE", description = "The manifest (YAML).")
    Path manifest;

    @Option(names = "--data", paramLabel = "KEY=VALUE", description = "External data; wins over the manifest's data. Dotted keys nest.")
    List<String> data = new ArrayList<>();

    @Option(names = "--fact", paramLabel = "KEY=VALUE", description = "Override a fact (facts.os.family: --fact os.family=redhat).")
    List<String> facts = new ArrayList<>();

    @Option(names = "--facts", paramLabel = "FILE", description = "A YAML or JSON file of facts, merged over the gathered ones.")
    Path factsFile;

    @Option(names = "--max-apply-depth", paramLabel = "N", defaultValue = "" + CompileOptions.DEFAULT_MAX_APPLY_DEPTH,
            description = "At most N manifests in a chain of apply resources, the given one included (default: ${DEFAULT-VALUE}).")
    int maxApplyDepth;

    @Option(names = "--debug", description = "Debug logging, and stack traces for internal errors.")
    boolean debug;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** Compiles the manifest, or prints every problem as FILE:LINE:COL: message and returns empty. */
    Optional<Graph> compile(PrintWriter err) {
        return compile(err, null, false).map(GraphCache.Compiled::graph);
    }

    /**
     * The manifest's graph from {@code cache} (null: no cache, for a temporary prefix), compiled unless it holds the
     * graph of unchanged inputs or {@code noCache}; or empty, every problem printed as {@link #compile(PrintWriter)} does.
     */
    Optional<GraphCache.Compiled> compile(PrintWriter err, GraphCache cache, boolean noCache) {
        try {
            if (cache == null) return Optional.of(new GraphCache.Compiled(compileOrThrow(), GraphCache.Outcome.OFF));
            return Optional.of(noCache ? cache.recompile(manifest, options()) : cache.compile(manifest, options()));
        } catch (ManifestException e) {
            for (Problem p : e.problems()) err.println(p);
            if (debug && e.getCause() != null) e.getCause().printStackTrace(err);
            err.flush();
            return Optional.empty();
        }
    }

    /** Compiles the manifest; its problems are the exception's. A bad flag is a usage error (exit 64). */
    Graph compileOrThrow() throws ManifestException {
        return new ManifestCompiler(options()).compile(manifest);
    }

    /** This host's name as an agent started with the same fact flags names it: the fqdn fact. After a compile. */
    String hostName() {
        try {
            return String.valueOf(options().facts().get("fqdn"));
        } catch (ManifestException e) {
            throw new IllegalStateException("the facts the manifest compiled with cannot be read again: " + e.getMessage(), e);
        }
    }

    /** What the manifest is compiled with. A bad flag is a usage error (exit 64); an unreadable --facts file, a problem. */
    private CompileOptions options() throws ManifestException {
        if (maxApplyDepth < 1) {
            throw new ParameterException(spec.commandLine(), "--max-apply-depth must be at least 1, got " + maxApplyDepth);
        }
        Map<String, Object> externalData = assignments(data, "--data");
        Map<String, Object> factOverrides = assignments(facts, "--fact");
        Map<String, Object> overrides = factsFile == null ? Map.of() : Assignments.readMap(factsFile);
        overrides = Maps.deepMerge(overrides, factOverrides);
        return new CompileOptions(Facts.of(overrides), System.getenv(), externalData, maxApplyDepth);
    }

    /** {@code --data} and {@code --fact} values; a malformed one is a usage error (exit 64). */
    private Map<String, Object> assignments(List<String> values, String flag) {
        try {
            return Assignments.parse(values, flag);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
