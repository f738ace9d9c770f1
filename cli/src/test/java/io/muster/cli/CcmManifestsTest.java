package io.muster.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.muster.engine.testing.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Choria CCM manifest applied through the CLI behaves as CCM applies it: real files, real processes. */
class CcmManifestsTest {
    /** A command, one that fails, and a command: each of the two that run appends to ROOT/log. */
    private static final String THREE_EXECS = """
                - exec:
                    - "/bin/sh -c 'echo first >> ROOT/log'": {}
                    - "/bin/false": {}
                    - "/bin/sh -c 'echo third >> ROOT/log'": {}
            """;

    @TempDir
    Path dir;

    private Manifests manifests;
    private String user;
    private String group;

    @BeforeEach
    void setUp() throws IOException {
        manifests = new Manifests(dir);
        user = System.getProperty("user.name");
        group = Files.readAttributes(dir, java.nio.file.attribute.PosixFileAttributes.class).group().getName();
    }

    private Path write(String yaml) {
        return manifests.write("site.yaml", yaml.replace("OWNER", user).replace("GROUP", group));
    }

    private static Cli apply(Path manifest) {
        return Cli.run("apply", manifest, "--tmp-prefix");
    }

    @Test
    void resourcesRunInOrderAndAFailureDoesNotStopTheRestNorFailTheRunAsCcmApplyExits() {
        Path site = write("""
                ccm:
                  resources:
                """ + THREE_EXECS);
        Cli run = apply(site);
        assertThat(run.exit()).as("ccm apply reports a failed resource, and exits 0").isZero();
        assertThat(run.out()).contains("exec#/bin/false failed").contains("failed 1,");
        assertThat(dir.resolve("log")).hasContent("first\nthird");
    }

    /**
     * CCM's timeout ends only CCM's wait: the command runs to its end, a success after the deadline fails with
     * "context deadline exceeded", another exit code is judged by returns; the report names the command as written.
     */
    @Test
    void aTimeoutNeverKillsTheCommandAndALateSuccessFails() {
        Path site = write("""
                ccm:
                  resources:
                    - exec:
                        - "/bin/sh -c 'sleep 1.5; echo done >> ROOT/log'": {timeout: 500ms}
                        - "/bin/sh -c 'sleep 1.5; exit 3'": {timeout: 500ms, returns: [3]}
                        - "/bin/sh -c 'echo quick >> ROOT/log'": {timeout: 10s}
                """);
        Cli run = apply(site);
        assertThat(run.out()).contains("exec#/bin/sh -c 'sleep 1.5; echo done >> " + dir + "/log' failed")
                .contains("succeeded only after its timeout of 0.5s: context deadline exceeded")
                .contains("exec#/bin/sh -c 'sleep 1.5; exit 3' changed").contains("failed 1,").doesNotContain("ccm-timeout");
        assertThat(dir.resolve("log")).as("the late command was not killed").hasContent("done\nquick");
    }

    @Test
    void aPosixCommandPassesShellSyntaxToTheProgramAsWritten() {
        Path site = write("""
                ccm:
                  resources:
                    - exec:
                        - "touch ROOT/a>b ROOT/$HOME \\"ROOT/two words\\" 'ROOT/single quoted'": {}
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(dir.resolve("a>b")).exists();
        assertThat(dir.resolve("$HOME")).exists();
        assertThat(dir.resolve("two words")).exists();
        assertThat(dir.resolve("single quoted")).exists();
    }

    @Test
    void failOnErrorSkipsEverythingAfterAFailure() {
        Path site = write("""
                ccm:
                  fail_on_error: true
                  resources:
                """ + THREE_EXECS);
        Cli run = apply(site);
        assertThat(run.exit()).isZero();
        assertThat(dir.resolve("log")).hasContent("first");
        assertThat(run.out() + run.err()).contains("skipped");
    }

    @Test
    void messagesArePrintedAsCcmApplyPrintsThemThePostMessageOnlyWhenNothingFailed() {
        String manifest = """
                ccm:
                  pre_message: Configuring the box
                  post_message: The box is ready
                  resources:
                    - exec: [{"COMMAND": {}}]
                """;
        Cli good = Cli.run("apply", write(manifest.replace("COMMAND", "/bin/true")), "--tmp-prefix", "-v");
        assertThat(good.out()).as("on the output, as ccm apply prints them").startsWith("\nConfiguring the box\n")
                .containsSubsequence("exec#/bin/true", "The box is ready\n", "apply on");
        assertThat(good.err()).doesNotContain("Configuring the box");
        Cli bad = Cli.run("apply", write(manifest.replace("COMMAND", "/bin/false")), "--tmp-prefix", "-v");
        assertThat(bad.out()).contains("Configuring the box").doesNotContain("The box is ready").doesNotContain("post_message");
    }

    @Test
    void filesTakeCcmsModesAndDirectoriesGainSearchBits() throws IOException {
        Path site = write("""
                ccm:
                  resources:
                    - file:
                        - defaults: {owner: OWNER, group: GROUP}
                        - ROOT/conf: {ensure: directory, mode: 0o640}
                        - ROOT/conf/app.ini: {ensure: present, mode: 640, content: "port = 8080\\n"}
                        - ROOT/empty: {ensure: present, mode: "0600"}
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("conf")))).isEqualTo("rwxr-x---");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("conf/app.ini")))).isEqualTo("rw-r-----");
        assertThat(dir.resolve("conf/app.ini")).hasContent("port = 8080");
        assertThat(dir.resolve("empty")).isEmptyFile();
        assertThat(apply(site).out()).contains("changed 0,");
    }

    @Test
    void aSubscribeRefreshRunsAnExecEvenWhenItsGuardSaysItIsDone() throws IOException {
        Files.writeString(dir.resolve("marker"), "");
        String manifest = """
                ccm:
                  resources:
                    - file: [{ROOT/app.conf: {ensure: present, owner: OWNER, group: GROUP, mode: "0644", content: "CONTENT"}}]
                    - exec:
                        - "/bin/sh -c 'echo ran >> ROOT/restarts'":
                            creates: ROOT/marker
                            subscribe: ["file#ROOT/app.conf"]
                """;
        apply(write(manifest.replace("CONTENT", "one")));
        assertThat(dir.resolve("restarts")).hasContent("ran");
        apply(write(manifest.replace("CONTENT", "one")));
        assertThat(dir.resolve("restarts")).as("no change, no refresh: the guard holds").hasContent("ran");
        apply(write(manifest.replace("CONTENT", "two")));
        assertThat(dir.resolve("restarts")).hasContent("ran\nran");
    }

    @Test
    void aShellExecRunsThroughTheShellWithTheEnvironmentOfCcmsRunnerAndItsOwn() throws IOException {
        Path site = write("""
                ccm:
                  resources:
                    - exec:
                        - greet:
                            command: echo "$GREETING" > ROOT/greeting; env > ROOT/environment
                            provider: shell
                            environment: ["GREETING=hello there", "LANG=C.UTF-8"]
                            timeout: 1m30s
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(dir.resolve("greeting")).hasContent("hello there");
        List<String> environment = Files.readAllLines(dir.resolve("environment"));
        assertThat(environment).as("nothing of muster's own").contains("PATH=/usr/bin:/bin:/usr/sbin:/sbin:/usr/local/bin:/usr/local/sbin",
                "LC_ALL=C", "LANG=C.UTF-8", "GREETING=hello there").noneMatch(line -> line.startsWith("HOME="));
    }

    @Test
    void everyCommandReadsACcmManifestAndPointsAtItsMistakes() {
        Path site = write("""
                ccm:
                  resources:
                    - file: [{ROOT/x: {ensure: present, owner: OWNER, group: GROUP, mode: "0999"}}]
                """);
        for (String command : new String[] {"validate", "plan", "graph", "apply"}) {
            Cli run = Cli.run(command, site);
            assertThat(run.exit()).as(command).isNotZero();
            assertThat(run.err()).as(command).contains(site + ":3:").contains("mode '0999' is not a valid octal number");
        }
        Path good = write("ccm:\n  resources:\n    - exec: [{/bin/true: {}}]\n");
        assertThat(Cli.run("validate", good).exit()).isZero();
        assertThat(Cli.run("graph", good).out()).contains("exec#/bin/true");
        assertThat(Cli.run("plan", good, "--tmp-prefix").out()).contains("exec#/bin/true");
    }

    /**
     * A CCM archive downloaded with basic authentication, kept, extracted and applied again, through the commands:
     * the password shows nowhere they print, in text or JSON, nor in what muster keeps under its prefix but the
     * compiled graph it caches, which is muster's alone (0600), as the data the password came from is.
     */
    @Test
    void anArchiveIsDownloadedWithItsCredentialsWhichNoOutputShows() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree/app-1.0"));
        Files.writeString(tree.resolve("README"), "read me\n");
        Process tar = new ProcessBuilder("tar", "czf", "../app.tar.gz", "app-1.0").directory(dir.resolve("tree").toFile()).start();
        assertThat(tar.waitFor()).isZero();
        byte[] archive = Files.readAllBytes(dir.resolve("app.tar.gz"));
        List<String> auth = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/app.tar.gz", exchange -> {
            auth.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.sendResponseHeaders(200, archive.length);
            try (var out = exchange.getResponseBody()) {
                out.write(archive);
            }
        });
        server.start();
        try {
            Files.createDirectories(dir.resolve("dl"));
            Path site = write("""
                    ccm:
                      resources:
                        - archive:
                            - ROOT/dl/app.tar.gz:
                                ensure: present
                                url: http://127.0.0.1:PORT/app.tar.gz
                                username: deploy
                                password: "{{ Data.secret }}"
                                extract_parent: ROOT/opt/app
                                creates: ROOT/opt/app/app-1.0/README
                                owner: OWNER
                                group: GROUP
                    data:
                      secret: Hunter2-s3cret
                    """.replace("PORT", String.valueOf(server.getAddress().getPort())));
            Path prefix = dir.resolve("prefix");
            List<String> printed = new java.util.ArrayList<>();
            for (String[] command : new String[][] {{"plan"}, {"plan", "--output", "json"}, {"apply", "-v"}, {"apply", "--output", "json"}}) {
                List<Object> args = new java.util.ArrayList<>(List.of(command[0], site, "--prefix", prefix));
                args.addAll(List.of(command).subList(1, command.length));
                Cli run = Cli.run(args.toArray());
                assertThat(run.exit()).as(run.out() + run.err()).isEqualTo(command[0].equals("plan") ? 2 : 0); // a plan's 2: changes pending
                printed.add(run.out() + run.err());
            }
            assertThat(printed.get(0)).contains("downloaded absent -> http://127.0.0.1:");
            assertThat(printed.get(2)).contains("archive#" + dir.resolve("dl/app.tar.gz") + " changed");
            assertThat(printed).allSatisfy(out -> assertThat(out).doesNotContain("Hunter2"));
            assertThat(auth).containsExactly("Basic " + java.util.Base64.getEncoder().encodeToString("deploy:Hunter2-s3cret".getBytes()));
            assertThat(dir.resolve("opt/app/app-1.0/README")).hasContent("read me");
            assertThat(dir.resolve("dl/app.tar.gz")).exists();
            try (var kept = Files.walk(prefix)) {
                assertThat(kept.filter(Files::isRegularFile)).allSatisfy(f -> {
                    if (f.toString().endsWith(".graph")) {
                        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(f))).isEqualTo("rw-------");
                    } else {
                        assertThat(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1)).as(f.toString()).doesNotContain("Hunter2");
                    }
                });
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aScaffoldWritesItsTreePurgesStraysRunsPostCommandsAndRemovesOnlyItsOwnFiles() throws IOException {
        manifests.write("templates/site/index.html", "<h1>welcome</h1>\n");
        manifests.write("templates/site/bin/start.sh", "#!/bin/sh\nexec true\n");
        manifests.write("templates/site/empty.txt", "  \n");
        Files.createDirectories(dir.resolve("www"));
        Files.writeString(dir.resolve("www/stray.txt"), "left over");
        String manifest = """
                ccm:
                  resources:
                    - scaffold:
                        - ROOT/www:
                            ensure: ENSURE
                            source: templates/site
                            purge: true
                            skip_empty: true
                            post:
                              - "*.sh": "chmod 0755 {}"
                """;
        Cli first = apply(write(manifest.replace("ENSURE", "present")));
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(dir.resolve("www/index.html")).hasContent("<h1>welcome</h1>");
        assertThat(Files.isExecutable(dir.resolve("www/bin/start.sh"))).isTrue();
        assertThat(dir.resolve("www/empty.txt")).doesNotExist();
        assertThat(dir.resolve("www/stray.txt")).doesNotExist();
        assertThat(apply(write(manifest.replace("ENSURE", "present"))).out()).contains("changed 0,");
        Files.writeString(dir.resolve("www/mine.txt"), "not the scaffold's");
        apply(write(manifest.replace("ENSURE", "absent").replace("purge: true", "purge: false")));
        assertThat(dir.resolve("www/index.html")).doesNotExist();
        assertThat(dir.resolve("www/bin")).doesNotExist();
        assertThat(dir.resolve("www/mine.txt")).exists();
    }

    @Test
    void deferredTemplatesAreRenderedWhenTheResourceRunsAndControlSkipsByCcmsExpressions() {
        Path site = write("""
                data:
                  enabled: false
                ccm:
                  resources:
                    - exec:
                        - write the token:
                            command: /bin/sh -c 'echo s3cret > ROOT/token'
                        - "copy the token":
                            command: "/bin/sh -c 'echo {{ file(\\"ROOT/token\\") | trim() }} > ROOT/copy'"
                        - never:
                            command: /bin/sh -c 'touch ROOT/never'
                            control:
                              if: Data.enabled
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(dir.resolve("copy")).as("file() read what the exec before it wrote").hasContent("s3cret");
        assertThat(dir.resolve("never")).doesNotExist();
    }

    @Test
    void aRequireOfAResourceNotRunYetStopsTheRunThereAsCcmsManagerFindsNoEvents() {
        Path site = write("""
                ccm:
                  post_message: never shown
                  resources:
                    - exec:
                        - "/bin/sh -c 'echo first >> ROOT/log'": {}
                        - needs-later:
                            command: "/bin/sh -c 'echo needs-later >> ROOT/log'"
                            require: ["exec#later"]
                        - later:
                            command: "/bin/sh -c 'echo later >> ROOT/log'"
                """);
        Cli run = apply(site);
        assertThat(run.exit()).isEqualTo(1);
        assertThat(dir.resolve("log")).hasContent("first");
        assertThat(run.out()).contains("no events found for exec#later").doesNotContain("never shown");
        assertThat(run.err()).as("the error, as ccm apply prints it").contains("muster: error: no events found for exec#later");
        assertThat(Cli.run("validate", site).exit()).as("CCM finds it only when the resource runs").isZero();
    }

    @Test
    void aSubscribeToAResourceNotRunYetFailsThatResourceAloneAndReferencesMatchAliases() {
        Path site = write("""
                ccm:
                  resources:
                    - exec:
                        - "/bin/sh -c 'echo one >> ROOT/log'": {alias: one}
                        - two:
                            command: "/bin/sh -c 'echo two >> ROOT/log'"
                            require: ["exec#one"]
                        - restart:
                            command: "/bin/sh -c 'echo restart >> ROOT/log'"
                            subscribe: ["service#unknown"]
                        - skipped:
                            command: "/bin/sh -c 'echo skipped >> ROOT/log'"
                            require: ["exec#nowhere"]
                            control: {if: "false"}
                        - three:
                            command: "/bin/sh -c 'echo three >> ROOT/log'"
                            require: ["exec#skipped"]
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as(run.out()).isZero();
        assertThat(dir.resolve("log")).as("a resource its control skips did not fail: what requires it runs").hasContent("one\ntwo\nthree");
        assertThat(run.out()).contains("no events found for service#unknown");
    }

    @Test
    void theSameResourceWrittenTwiceRunsTwiceAsCcmRunsItsList() {
        Path site = write("""
                ccm:
                  resources:
                    - exec: [{"/bin/sh -c 'echo again >> ROOT/log'": {}}]
                    - exec: [{"/bin/sh -c 'echo between >> ROOT/log'": {}}]
                    - exec: [{"/bin/sh -c 'echo again >> ROOT/log'": {}}]
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(dir.resolve("log")).hasContent("again\nbetween\nagain");
    }

    @Test
    void aCommandWithoutCwdRunsInTheRootDirectoryItsGuardsToo() {
        Path site = write("""
                ccm:
                  resources:
                    - exec:
                        - "/bin/sh -c 'pwd > ROOT/where'":
                            onlyif: '/bin/sh -c "test $(pwd) = /"'
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(dir.resolve("where")).hasContent("/");
    }

    @Test
    void referencesReachAcrossAnApplyAndAChildsStopFailsOnlyItsApply() {
        manifests.write("child.yaml", """
                ccm:
                  resources:
                    - exec:
                        - child: {command: "/bin/sh -c 'echo child >> ROOT/log'", require: ["exec#base"]}
                        - early: {command: "/bin/sh -c 'echo early >> ROOT/log'", require: ["exec#late"]}
                        - late: {command: "/bin/sh -c 'echo late >> ROOT/log'"}
                """.replace("ROOT", dir.toString()));
        Path site = write("""
                ccm:
                  resources:
                    - exec: [{base: {command: "/bin/sh -c 'echo base >> ROOT/log'"}}]
                    - apply: [{child.yaml: {}}]
                    - exec: [{after: {command: "/bin/sh -c 'echo after >> ROOT/log'", require: ["exec#child"]}}]
                """);
        Cli run = apply(site);
        assertThat(run.exit()).as("the child's apply failed, the run did not stop").isZero();
        assertThat(dir.resolve("log")).hasContent("base\nchild\nafter");
        assertThat(run.out()).contains("no events found for exec#late").contains("apply#child.yaml failed");
    }

    @Test
    void whatTheResourcesLogGoesToStdoutAsCcmApplyWritesIt() throws Exception {
        Path site = write("""
                ccm:
                  resources:
                    - exec: [{"/bin/echo from the command": {logoutput: true}}]
                """);
        try (MusterProcess muster = MusterProcess.start(dir, "apply", "apply", site, "--tmp-prefix")) {
            assertThat(muster.awaitExit(java.time.Duration.ofSeconds(60))).as(muster.err()).isZero();
            assertThat(muster.out()).contains("from the command");
            assertThat(muster.err()).doesNotContain("from the command");
        }
    }

    @Test
    void aSubscriberRunsWhenWhatItSubscribesToFailedAsCcmAsksOnlyWhetherItChanged() {
        Path site = write("""
                ccm:
                  resources:
                    - exec:
                        - /bin/false: {}
                        - after:
                            command: "/bin/sh -c 'echo after >> ROOT/log'"
                            subscribe: ["exec#/bin/false"]
                        - waiting:
                            command: "/bin/sh -c 'echo waiting >> ROOT/log'"
                            refreshonly: true
                            subscribe: ["exec#/bin/false"]
                """);
        Cli run = apply(site);
        assertThat(run.exit()).isZero();
        assertThat(dir.resolve("log")).as("a failure is no change: refreshonly waits").hasContent("after");
    }

    @Test
    void aDirectoryIsMadeWithItsMissingParentsAsMkdirAllMakesThemAFileIsNot() {
        Path site = write("""
                ccm:
                  resources:
                    - file:
                        - defaults: {owner: OWNER, group: GROUP}
                        - ROOT/srv/app/conf: {ensure: directory, mode: "0750"}
                        - ROOT/var/lib/app/state: {ensure: present, mode: "0640", content: x}
                """);
        Cli run = apply(site);
        assertThat(run.exit()).isZero();
        assertThat(dir.resolve("srv/app/conf")).isDirectory();
        assertThat(dir.resolve("var/lib/app/state")).doesNotExist();
        assertThat(run.out()).contains("failed").contains("var/lib/app does not exist");
    }
}
