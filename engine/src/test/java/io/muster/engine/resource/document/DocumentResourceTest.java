package io.muster.engine.resource.document;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.muster.engine.manifest.ManifestException;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocumentResourceTest {
    @TempDir
    Path dir;

    private Manifests m() {
        return new Manifests(dir);
    }

    private String id(String name) {
        return "document#" + dir.resolve(name);
    }

    private ResourceReport apply(String name, String yaml) throws Exception {
        return resource(m().apply(yaml), id(name));
    }

    private String read(String name) throws Exception {
        return Files.readString(dir.resolve(name));
    }

    private void write(String name, String text) throws Exception {
        Files.writeString(dir.resolve(name), text);
    }

    private Path stateDir() {
        return dir.resolve(".prefix/state/document");
    }

    @Test
    void createsTheFileThenLeavesItAlone() throws Exception {
        String yaml = """
                resources:
                  - document:
                      - ROOT/app.json:
                          content: {server: {port: 8080, hosts: [a, b]}, debug: false}
                """;
        ResourceReport first = apply("app.json", yaml);
        assertThat(first.status()).isEqualTo(Status.CHANGED);
        assertThat(first.changedAttributes()).containsExactly("ensure", "content");
        assertThat(read("app.json")).isEqualTo("""
                {
                  "server": {
                    "port": 8080,
                    "hosts": [
                      "a",
                      "b"
                    ]
                  },
                  "debug": false
                }
                """);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("app.json")))).isEqualTo("rw-r--r--");
        assertThat(apply("app.json", yaml).status()).isEqualTo(Status.STABLE);
    }

    @Test
    void keepsWhatOthersWroteAndRemovesOnlyWhatMusterSet() throws Exception {
        write("app.json", """
                {"name": "app", "server": {"port": 80, "tls": true}, "owner": "ops"}
                """);
        apply("app.json", """
                resources:
                  - document:
                      - ROOT/app.json: {content: {server: {port: 8080, workers: 4}, debug: true}}
                """);
        assertThat(Manifests.json(read("app.json"))).isEqualTo(Manifests.json("""
                {"name": "app", "server": {"port": 8080, "tls": true, "workers": 4}, "owner": "ops", "debug": true}"""));

        // another tool adds a field: the next run keeps it and changes nothing
        write("app.json", read("app.json").replace("\"owner\": \"ops\",", "\"owner\": \"ops\",\n  \"added\": [1, 2],"));
        assertThat(apply("app.json", """
                resources:
                  - document:
                      - ROOT/app.json: {content: {server: {port: 8080, workers: 4}, debug: true}}
                """).status()).isEqualTo(Status.STABLE);
        assertThat(read("app.json")).contains("\"added\": [1, 2]");

        // fields the manifest no longer sets go; the others' fields and the one it still sets stay
        ResourceReport dropped = apply("app.json", """
                resources:
                  - document:
                      - ROOT/app.json: {content: {server: {port: 8080}}}
                """);
        assertThat(dropped.status()).isEqualTo(Status.CHANGED);
        assertThat(Manifests.json(read("app.json"))).isEqualTo(Manifests.json("""
                {"name": "app", "server": {"port": 8080, "tls": true}, "owner": "ops", "added": [1, 2]}"""));
    }

    @Test
    void aFieldAlreadyRightIsStableButRememberedSoThatDroppingItRemovesIt() throws Exception {
        write("conf.json", "{\"a\": 1.0, \"b\": \"theirs\"}");
        assertThat(apply("conf.json", """
                resources:
                  - document: [{ROOT/conf.json: {content: {a: 1}}}]
                """).status()).as("1 and 1.0 are one number").isEqualTo(Status.STABLE);
        assertThat(read("conf.json")).as("a stable file is not rewritten").isEqualTo("{\"a\": 1.0, \"b\": \"theirs\"}");
        apply("conf.json", """
                resources:
                  - document: [{ROOT/conf.json: {content: {}}}]
                """);
        assertThat(read("conf.json")).isEqualTo("{\n  \"b\": \"theirs\"\n}\n");
    }

    @Test
    void yamlListsOfObjectsMergeByNameAndOthersItemsStay() throws Exception {
        write("pod.yaml", """
                # comments are not kept when the file is rewritten
                spec:
                  containers:
                    - name: web
                      image: nginx
                    - name: sidecar
                      image: log-uploader
                  ports: [80]
                """);
        String yaml = """
                resources:
                  - document:
                      - ROOT/pod.yaml:
                          content:
                            spec:
                              containers: [{name: web, image: "nginx:1.25"}, {name: cache, image: redis}]
                              ports: [8080, 8443]
                """;
        apply("pod.yaml", yaml);
        assertThat(read("pod.yaml")).isEqualTo("""
                spec:
                  containers:
                    - name: web
                      image: nginx:1.25
                    - name: sidecar
                      image: log-uploader
                    - name: cache
                      image: redis
                  ports:
                    - 8080
                    - 8443
                """);
        assertThat(apply("pod.yaml", yaml).status()).isEqualTo(Status.STABLE);
        apply("pod.yaml", """
                resources:
                  - document:
                      - ROOT/pod.yaml: {content: {spec: {containers: [{name: web, image: "nginx:1.25"}]}}}
                """);
        assertThat(read("pod.yaml")).isEqualTo("""
                spec:
                  containers:
                    - name: web
                      image: nginx:1.25
                    - name: sidecar
                      image: log-uploader
                """);
    }

    @Test
    void planShowsTheDiffAndWritesNothing() throws Exception {
        write("app.json", "{\n  \"keep\": 1,\n  \"port\": 80\n}\n");
        ResourceReport r = resource(m().plan("""
                resources:
                  - document: [{ROOT/app.json: {content: {port: 8080}}}]
                """), id("app.json"));
        assertThat(r.status()).isEqualTo(Status.CHANGED);
        assertThat(r.changes()).singleElement().satisfies(c -> assertThat(c.diff())
                .startsWith("--- a" + dir.resolve("app.json")).contains("-  \"port\": 80\n+  \"port\": 8080\n"));
        assertThat(read("app.json")).isEqualTo("{\n  \"keep\": 1,\n  \"port\": 80\n}\n");
        assertThat(dir.resolve(".prefix")).doesNotExist();
    }

    @Test
    void planUsesLastAppliedToShowRemovals() throws Exception {
        apply("app.json", """
                resources:
                  - document: [{ROOT/app.json: {content: {a: 1, b: 2}}}]
                """);
        ResourceReport r = resource(m().plan("""
                resources:
                  - document: [{ROOT/app.json: {content: {a: 1}}}]
                """), id("app.json"));
        assertThat(r.changes()).singleElement().satisfies(c -> assertThat(c.diff()).contains("-  \"b\": 2\n"));
        assertThat(Manifests.json(read("app.json"))).containsEntry("b", 2);
    }

    @Test
    void anUnparsableFileIsLeftAloneAndTheErrorNamesIt() throws Exception {
        write("broken.json", "{\"a\": 1,\n \"b\" 2}\n");
        ResourceReport r = apply("broken.json", """
                resources:
                  - document: [{ROOT/broken.json: {content: {a: 2}}}]
                """);
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.error()).isEqualTo(dir.resolve("broken.json") + ": not valid JSON: line 2 column 6: expected ':', found '2' (left as it is)");
        assertThat(read("broken.json")).isEqualTo("{\"a\": 1,\n \"b\" 2}\n");

        write("list.yaml", "- a\n- b\n");
        assertThat(apply("list.yaml", """
                resources:
                  - document: [{ROOT/list.yaml: {content: {a: 2}}}]
                """).error()).isEqualTo(dir.resolve("list.yaml")
                + ": expected a map of fields at the top of the YAML document, found a list (left as it is)");
    }

    @Test
    void contentMayComeFromTemplates() throws Exception {
        String yaml = """
                data:
                  server: {port: 8080, names: [a, b]}
                resources:
                  - document:
                      - ROOT/app.json: {content: {server: "${ data.server }", ports: "${ [80, 443] }"}}
                """;
        apply("app.json", yaml);
        assertThat(Manifests.json(read("app.json"))).isEqualTo(Manifests.json("""
                {"server": {"port": 8080, "names": ["a", "b"]}, "ports": [80, 443]}"""));
        assertThat(apply("app.json", yaml).status()).isEqualTo(Status.STABLE);
    }

    @Test
    void theFormatComesFromTheExtensionOrIsAskedFor() {
        assertThatThrownBy(() -> m().compile("""
                resources:
                  - document: [{ROOT/app.conf: {content: {a: 1}}}]
                """)).isInstanceOf(ManifestException.class).hasMessageContaining("set format: json or format: yaml");
    }

    @Test
    void anExplicitFormatWinsAndModeIsSet() throws Exception {
        write("app.conf", "a: 1\n");
        Files.setPosixFilePermissions(dir.resolve("app.conf"), PosixFilePermissions.fromString("rw-rw-rw-"));
        ResourceReport r = apply("app.conf", """
                resources:
                  - document: [{ROOT/app.conf: {format: yaml, mode: "0600", content: {b: 2}}}]
                """);
        assertThat(r.changedAttributes()).containsExactly("content", "mode");
        assertThat(read("app.conf")).isEqualTo("a: 1\nb: 2\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("app.conf")))).isEqualTo("rw-------");
    }

    @Test
    void aRewriteKeepsTheFilesMode() throws Exception {
        write("app.json", "{}");
        Files.setPosixFilePermissions(dir.resolve("app.json"), PosixFilePermissions.fromString("rw-------"));
        apply("app.json", """
                resources:
                  - document: [{ROOT/app.json: {content: {a: 1}}}]
                """);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("app.json")))).isEqualTo("rw-------");
    }

    @Test
    void sensitiveContentIsNeverShownInDiffs() throws Exception {
        ResourceReport r = resource(m().plan("""
                resources:
                  - document: [{ROOT/secret.json: {content: {password: hunter2}, sensitive: true}}]
                """), id("secret.json"));
        assertThat(r.changes()).allSatisfy(c -> assertThat(String.valueOf(c.diff())).doesNotContain("hunter2"));
    }

    @Test
    void absentRemovesTheFileAndWhatMusterRememberedOfIt() throws Exception {
        apply("app.json", """
                resources:
                  - document: [{ROOT/app.json: {content: {a: 1}}}]
                """);
        assertThat(stateDir()).isNotEmptyDirectory();
        ResourceReport r = apply("app.json", """
                resources:
                  - document: [{ROOT/app.json: {ensure: absent}}]
                """);
        assertThat(r.changedAttributes()).containsExactly("ensure");
        assertThat(dir.resolve("app.json")).doesNotExist();
        try (var files = Files.walk(stateDir())) {
            assertThat(files.filter(Files::isRegularFile)).isEmpty();
        }
    }

    @Test
    void aMissingParentOrADirectoryIsAnError() throws Exception {
        Files.createDirectories(dir.resolve("dir.json"));
        var report = m().apply("""
                resources:
                  - document:
                      - ROOT/missing/app.json: {content: {a: 1}}
                      - ROOT/dir.json: {content: {a: 1}}
                """);
        assertThat(resource(report, id("missing/app.json")).error()).startsWith("parent directory " + dir.resolve("missing") + " does not exist");
        assertThat(resource(report, id("dir.json")).error()).isEqualTo(dir.resolve("dir.json") + " is a directory; a document resource manages a regular file");
    }

    @Test
    void aLongPathHasAStateDirectoryOfItsOwnAndItsRecordIsPrivate() throws Exception {
        String deep = "a".repeat(60) + "/" + "b".repeat(60) + "/" + "c".repeat(60) + "/" + "d".repeat(60);
        Files.createDirectories(dir.resolve(deep));
        ResourceReport r = apply(deep + "/app.json", """
                resources:
                  - document: [{ROOT/DEEP/app.json: {content: {password: hunter2}}}]
                """.replace("DEEP", deep));
        assertThat(r.error()).isNull();
        Path lastApplied;
        try (var files = Files.walk(stateDir())) {
            lastApplied = files.filter(Files::isRegularFile).findFirst().orElseThrow();
        }
        assertThat(lastApplied.getFileName()).hasToString(DocumentResource.LAST_APPLIED);
        assertThat(lastApplied.getParent().getFileName().toString()).hasSizeLessThan(80).startsWith("%2Ftmp%2F");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lastApplied))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lastApplied.getParent()))).isEqualTo("rwx------");
        assertThat(apply(deep + "/app.json", """
                resources:
                  - document: [{ROOT/DEEP/app.json: {content: {password: hunter2}}}]
                """.replace("DEEP", deep)).status()).isEqualTo(Status.STABLE);
    }

    @Test
    void aStateDirectoryAndRecordLeftOpenByAnOlderVersionAreMadePrivateWhenRead() throws Exception {
        String yaml = """
                resources:
                  - document: [{ROOT/app.json: {content: {password: hunter2}}}]
                """;
        assertThat(apply("app.json", yaml).status()).isEqualTo(Status.CHANGED);
        Path lastApplied;
        try (var files = Files.walk(stateDir())) {
            lastApplied = files.filter(Files::isRegularFile).findFirst().orElseThrow();
        }
        Files.setPosixFilePermissions(lastApplied, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(lastApplied.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThat(apply("app.json", yaml).status()).as("read, not rewritten").isEqualTo(Status.STABLE);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lastApplied))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(lastApplied.getParent()))).isEqualTo("rwx------");
    }

    @Test
    void aStateDirectoryInTheWayFailsTheResourceBeforeTheFileIsWritten() throws Exception {
        Files.createDirectories(stateDir().getParent());
        Files.writeString(stateDir(), "in the way");
        ResourceReport r = apply("app.json", """
                resources:
                  - document: [{ROOT/app.json: {content: {a: 1}}}]
                """);
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.error()).isEqualTo(stateDir() + ": Not a directory");
        assertThat(dir.resolve("app.json")).doesNotExist();
    }

    @Test
    void aStateDirectoryNamedTheOldWayIsStillReadThenRenamed() throws Exception {
        apply("app.json", """
                resources:
                  - document: [{ROOT/app.json: {content: {a: 1, b: 2}}}]
                """);
        Path hashed;
        try (var dirs = Files.list(stateDir())) {
            hashed = dirs.findFirst().orElseThrow();
        }
        Path legacy = stateDir().resolve(dir.resolve("app.json").toString().replace("/", "%2F"));
        Files.move(hashed, legacy);
        apply("app.json", """
                resources:
                  - document: [{ROOT/app.json: {content: {a: 1}}}]
                """);
        assertThat(read("app.json")).doesNotContain("\"b\"");
        assertThat(hashed).isDirectory();
        assertThat(legacy).doesNotExist();
    }
}
