package io.muster.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * What {@code muster remote} uploads, made for tests on this machine (whose sshd "hosts" share its files): a jar that
 * runs this test JVM's muster (its manifest's Class-Path names the test class path, so no shaded jar need be built), with
 * an entry unique to the JVM so that its cache directory on the hosts is new, and the Java runtime the deploy module
 * links with jlink (its modules, base class-data archive and sha256 listing), linked from the running JDK once (about
 * 25 s) and kept in target/ for later test runs.
 */
final class TestPayload {
    private static final Path RUNTIME = Path.of("target/test-runtime").toAbsolutePath();
    private static Path jar;

    private TestPayload() {}

    /** The runtime, linked by the deploy module's script as for the .deb (it does nothing when the runtime is up to date). */
    static synchronized Path runtime() throws IOException, InterruptedException {
        Path script = Path.of("../deploy/src/build/runtime.sh").toAbsolutePath().normalize();
        Process link = new ProcessBuilder(script.toString(), System.getProperty("java.home"), RUNTIME.toString()).inheritIO().start();
        if (link.waitFor() != 0) throw new IOException(script + " failed: exit " + link.exitValue());
        return RUNTIME;
    }

    /** The jar, in target/: made once per JVM. */
    static synchronized Path jar() throws IOException {
        if (jar != null) return jar;
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.put(Attributes.Name.MAIN_CLASS, "io.muster.cli.Main");
        main.put(new Attributes.Name("Enable-Native-Access"), "ALL-UNNAMED");
        List<String> classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toUri().toString()).toList();
        main.put(Attributes.Name.CLASS_PATH, String.join(" ", classPath));
        Path made = Files.createDirectories(Path.of("target/remote-test")).resolve("muster-" + ProcessHandle.current().pid() + ".jar").toAbsolutePath();
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(made), manifest)) {
            out.putNextEntry(new JarEntry("test-payload-id"));
            out.write(UUID.randomUUID().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        jar = made;
        return jar;
    }
}
