package io.muster.engine.testing;

import io.muster.engine.compile.CompileOptions;
import io.muster.engine.compile.ManifestCompiler;
import io.muster.engine.graph.Graph;
import io.muster.engine.manifest.ManifestException;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.resource.Kinds;
import io.muster.engine.run.OneShotRun;
import io.muster.engine.run.RunOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** Writes manifests into a test's temp dir, compiles and runs them; shared with the cli and examples tests. */
public final class Manifests {
    public static final Map<String, Object> FACTS = Map.of("hostname", "testhost", "fqdn", "testhost.example.com",
            "os", Map.of("family", "debian", "name", "debian", "release", "12"));

    private final Path dir;
    private final Kinds kinds;

    public Manifests(Path dir) {
        this(dir, Kinds.installed());
    }

    /** Compiles with {@code kinds}: the installed ones and test kinds such as {@link FakePackageKind}. */
    public Manifests(Path dir, Kinds kinds) {
        this.dir = dir;
        this.kinds = kinds;
    }

    public Path dir() {
        return dir;
    }

    /** Writes {@code yaml} to {@code name}; {@code ROOT} in the text becomes the temp dir. */
    public Path write(String name, String yaml) {
        Path file = dir.resolve(name);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, yaml.replace("ROOT", dir.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    public Graph compile(String yaml) throws ManifestException {
        return compile(write("site.yaml", yaml), Map.of());
    }

    public Graph compile(Path manifest, Map<String, Object> data) throws ManifestException {
        return new ManifestCompiler(new CompileOptions(FACTS, Map.of("HOME", "/home/test"), data).withKinds(kinds))
                .compile(manifest);
    }

    /** Compiles {@code manifest} for the fleet's host {@code host}, with the facts its agent published. */
    public Graph compileFor(String host, Map<String, Object> facts, Path manifest) throws ManifestException {
        return new ManifestCompiler(new CompileOptions(host, facts, Map.of("HOME", "/home/test"), Map.of(),
                CompileOptions.DEFAULT_MAX_APPLY_DEPTH, kinds)).compile(manifest);
    }

    public Report apply(String yaml) throws Exception {
        return run(compile(yaml), false);
    }

    public Report plan(String yaml) throws Exception {
        return run(compile(yaml), true);
    }

    public Report run(Graph graph, boolean noop) throws InterruptedException {
        RunOptions options = new RunOptions("testhost", noop, 4, dir.resolve(".prefix"), true, false);
        return new OneShotRun(graph, options, r -> {}).run();
    }

    public static ResourceReport resource(Report report, String id) {
        return report.resources().stream().filter(r -> r.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + id + " in report: " + report.resources()));
    }

    /** Parses JSON (a YAML 1.2 subset) for assertions on machine output. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> json(String text) {
        return (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
    }
}
