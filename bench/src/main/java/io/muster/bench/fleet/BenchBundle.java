package io.muster.bench.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The deployed bundle: small and per host, as a fleet's base and app roles are. {@code site.yaml} gives every
 * host ({@code h*}) two roles; each puts two directories and four one-line-ish files under the host's
 * {@code root} fact. {@link #release} rewrites one line of one role: the one-line change of the second deploy,
 * which changes one file's content on every host.
 */
final class BenchBundle {
    private final Path dir;

    BenchBundle(Path dir) {
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    Path manifest() {
        return dir.resolve("site.yaml");
    }

    /** Writes the bundle with {@code release} as the content of each host's etc/release. */
    void release(int release) throws IOException {
        release(release, null);
    }

    /**
     * As {@link #release(int)}, with a resource that fails on host {@code broken} when it runs (a file under its
     * etc/release, which is a file; every {@code nodes:} match applies): the failing canary of the rollout that halts.
     */
    void release(int release, String broken) throws IOException {
        Files.createDirectories(dir.resolve("roles"));
        Files.writeString(manifest(), broken == null ? """
                nodes:
                  "h*": [roles/base.yaml, roles/app.yaml]
                """ : """
                nodes:
                  "h*": [roles/base.yaml, roles/app.yaml]
                  "%s": [roles/broken.yaml]
                """.formatted(broken));
        Files.writeString(dir.resolve("roles/broken.yaml"), """
                resources:
                  - file:
                      - ${ facts.root }/etc/release/broken: {content: "a file under a file\\n"}
                """);
        Files.writeString(dir.resolve("roles/base.yaml"), """
                resources:
                  - file:
                      - ${ facts.root }/etc: {ensure: directory, mode: "0755"}
                      - defaults: {mode: "0644"}
                      - ${ facts.root }/etc/motd: {content: "managed by muster\\n"}
                      - ${ facts.root }/etc/release: {content: "release %d\\n"}
                """.formatted(release));
        Files.writeString(dir.resolve("roles/app.yaml"), """
                resources:
                  - file:
                      - ${ facts.root }/app: {ensure: directory, mode: "0755"}
                      - defaults: {mode: "0644"}
                      - ${ facts.root }/app/app.conf: {content: "listen 8080\\nworkers 4\\n"}
                      - ${ facts.root }/app/root: {content: "${ facts.root }\\n"}
                """);
    }

    /** What etc/release holds once {@code release} is applied. */
    static String releaseContent(int release) {
        return "release " + release + "\n";
    }
}
