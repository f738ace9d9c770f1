package io.muster.engine.testing;

import io.muster.engine.process.ProcessRunner;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A local apt repository of tiny packages that apt on this host installs from, made by
 * {@code scripts/local-apt-repo} (shared with bench/packages.sh): for tests of resources that install
 * packages, with real dpkg and apt and no download. Package names get a prefix of their own ({@link #name}),
 * so runs on one host never meet; {@link #clean} purges what was installed from it, closing it also stops apt
 * from using it. Publishing costs an {@code apt-get update} of its source: a test class shares one.
 */
public final class LocalAptRepository implements AutoCloseable {
    private static final ProcessRunner RUNNER = ProcessRunner.in(null, Duration.ofMinutes(10));

    private final Path dir;
    private final String prefix;

    private LocalAptRepository(Path dir, String prefix) {
        this.dir = dir;
        this.prefix = prefix;
    }

    /**
     * Builds and publishes the packages {@code specs} in {@code dir}: {@code hello=1.0}, or
     * {@code tool=1.0:lib} for a package that depends on {@code lib}, {@code web=1.0@service} for one with a daemon
     * and its init script (see the script's header); names without their prefix. apt reads
     * {@code dir} as its sandbox user: its parent (a test's temp directory, 0700) is opened for others to search.
     */
    public static LocalAptRepository publish(Path dir, String... specs) throws IOException, InterruptedException {
        Path parent = dir.toAbsolutePath().getParent();
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(parent);
        if (permissions.add(PosixFilePermission.OTHERS_EXECUTE)) Files.setPosixFilePermissions(parent, permissions);
        String prefix = "mt" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6) + "-";
        LocalAptRepository repository = new LocalAptRepository(dir, prefix);
        List<String> argv = new ArrayList<>(List.of(script().toString(), "up", dir.toString()));
        for (String spec : specs) argv.add(repository.prefixed(spec));
        repository.script(argv);
        return repository;
    }

    /** The name apt knows the package {@code shortName} of {@link #publish}'s specs by. */
    public String name(String shortName) {
        return prefix + shortName;
    }

    /** {@code name=version:dep,dep[@service]} with every name prefixed. */
    private String prefixed(String spec) {
        String service = spec.endsWith("@service") ? "@service" : "";
        String[] nameAndRest = spec.substring(0, spec.length() - service.length()).split("=", 2);
        String[] versionAndDepends = nameAndRest[1].split(":", 2);
        String depends = versionAndDepends.length == 1 ? ""
                : ":" + String.join(",", List.of(versionAndDepends[1].split(",")).stream().map(this::name).toList());
        return name(nameAndRest[0]) + "=" + versionAndDepends[0] + depends + service;
    }

    /** Purges what was installed from it (or left configuration files), so that the next test starts clean. */
    public void clean() throws IOException, InterruptedException {
        script(List.of(script().toString(), "clean", dir.toString()));
    }

    @Override
    public void close() throws IOException, InterruptedException {
        script(List.of(script().toString(), "down", dir.toString()));
    }

    private void script(List<String> argv) throws IOException, InterruptedException {
        ProcessRunner.Outcome outcome = RUNNER.run(argv, "local-apt-repo");
        if (outcome.exitCode() != 0) {
            throw new IOException(String.join(" ", argv) + " exited with " + outcome.exitCode() + ":\n"
                    + outcome.stdout().text() + outcome.stderr().text());
        }
    }

    /** scripts/local-apt-repo of this checkout, found from the module's directory where tests run. */
    private static Path script() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts/local-apt-repo");
            if (Files.isExecutable(script)) return script;
        }
        throw new IOException("scripts/local-apt-repo not found above " + Path.of("").toAbsolutePath());
    }
}
