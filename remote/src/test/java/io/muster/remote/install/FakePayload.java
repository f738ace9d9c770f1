package io.muster.remote.install;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Random;

/** A small stand-in for muster's jar and jlink runtime: a jar of random bytes, a bin/java script, a library and a link. */
final class FakePayload {
    private FakePayload() {}

    static Payload create(Path dir, int jarBytes) throws IOException {
        Path jar = dir.resolve("muster.jar");
        byte[] content = new byte[jarBytes];
        new Random(jarBytes).nextBytes(content);
        Files.write(jar, content);
        Path runtime = dir.resolve("runtime");
        Path java = runtime.resolve("bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/bin/sh\necho fake java \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.createDirectories(runtime.resolve("lib"));
        Files.write(runtime.resolve("lib/modules"), new byte[20_000]);
        Files.createDirectories(runtime.resolve("legal/java.base"));
        Files.createDirectories(runtime.resolve("legal/java.logging"));
        Files.writeString(runtime.resolve("legal/java.base/LICENSE"), "GPLv2 with the classpath exception\n");
        Files.createSymbolicLink(runtime.resolve("legal/java.logging/LICENSE"), Path.of("../java.base/LICENSE"));
        return new Payload(jar, runtime);
    }

    /** Writes the runtime's listing as a build would, with sha256sum (it names itself, as "> listing" makes it first). */
    static void writeListing(Payload payload) throws IOException, InterruptedException {
        Process sha256sum = new ProcessBuilder("sh", "-c", "find . -type f -o -type l | sort | xargs sha256sum > " + Payload.RUNTIME_LISTING)
                .directory(payload.runtime().toFile()).redirectErrorStream(true).start();
        String output = new String(sha256sum.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (sha256sum.waitFor() != 0) throw new IOException("sha256sum failed: " + output);
    }
}
