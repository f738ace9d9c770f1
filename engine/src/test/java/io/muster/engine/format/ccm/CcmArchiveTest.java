package io.muster.engine.format.ccm;

import static io.muster.engine.testing.Manifests.resource;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.muster.engine.report.Report;
import io.muster.engine.report.ResourceReport;
import io.muster.engine.report.Status;
import io.muster.engine.testing.Manifests;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CCM's {@code archive} as CCM's http provider and type behave: a real HTTP server, real archives, real files. */
class CcmArchiveTest {
    private static final String PASSWORD = "s3cret-Pa55word";

    @TempDir
    Path dir;

    private HttpServer server;
    private String url;
    private byte[] tarGz;
    private String sha256;
    /** Each request: its path, then its Authorization and X-Custom-Header (or "-"). */
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, byte[]> served = new ConcurrentHashMap<>();
    /** Who is to own the kept file: another user than the one running the test when that is root. */
    private String owner;
    private String group;

    @BeforeEach
    void setUp() throws Exception {
        Path tree = Files.createDirectories(dir.resolve("tree/app-1.0/bin"));
        Files.writeString(tree.resolve("run"), "#!/bin/sh\necho hi\n");
        Files.writeString(tree.resolve("../README"), "read me\n");
        run(dir.resolve("tree"), "tar", "czf", "../app.tar.gz", "app-1.0");
        tarGz = Files.readAllBytes(dir.resolve("app.tar.gz"));
        sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(tarGz));
        served.put("/app.tar.gz", tarGz);

        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            String custom = exchange.getRequestHeaders().getFirst("X-Custom-Header");
            requests.add(exchange.getRequestURI().getPath() + " " + (auth == null ? "-" : auth) + " " + (custom == null ? "-" : custom));
            byte[] body = served.get(exchange.getRequestURI().getPath());
            if (exchange.getRequestURI().getPath().equals("/broken.tar.gz")) {
                exchange.sendResponseHeaders(500, -1);
            } else if (body == null) {
                exchange.sendResponseHeaders(404, -1);
            } else {
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
            exchange.close();
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort();
        boolean root = System.getProperty("user.name").equals("root");
        owner = root ? "daemon" : System.getProperty("user.name");
        group = root ? "daemon" : Files.readAttributes(dir, PosixFileAttributes.class).group().getName();
        Files.createDirectories(dir.resolve("dl"));
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static void run(Path cwd, String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0).as("%s: %s", List.of(command), out).isTrue();
    }

    /** A CCM manifest of one archive, ROOT/dl/app.tar.gz, with {@code properties} (URL for the server, OWNER, GROUP). */
    private String manifest(String properties) {
        return """
                ccm:
                  resources:
                    - archive:
                        - ROOT/dl/app.tar.gz: {%s}
                """.formatted(properties.replace("URL", url).replace("OWNER", owner).replace("GROUP", group).replace("SHA", sha256));
    }

    private ResourceReport apply(String properties) throws Exception {
        return resource(new Manifests(dir).apply(manifest(properties)), "archive#" + dir.resolve("dl/app.tar.gz"));
    }

    private Report plan(String properties) throws Exception {
        return new Manifests(dir).plan(manifest(properties));
    }

    private Path kept() {
        return dir.resolve("dl/app.tar.gz");
    }

    private List<String> inDl() throws Exception {
        try (Stream<Path> all = Files.list(dir.resolve("dl"))) {
            return all.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aDownloadOnlyKeepsTheFileWithItsContentOwnerAndGroupAndASecondRunChangesNothing() throws Exception {
        String properties = "ensure: present, url: URL/app.tar.gz, checksum: SHA, owner: OWNER, group: GROUP";
        ResourceReport first = apply(properties);
        assertThat(first.status()).as(first.error()).isEqualTo(Status.CHANGED);
        assertThat(first.changes()).extracting(c -> c.describe()).containsExactly("downloaded absent -> " + url + "/app.tar.gz");
        assertThat(Files.readAllBytes(kept())).isEqualTo(tarGz);
        PosixFileAttributes attributes = Files.readAttributes(kept(), PosixFileAttributes.class);
        assertThat(attributes.owner().getName()).isEqualTo(owner);
        assertThat(attributes.group().getName()).isEqualTo(group);
        assertThat(PosixFilePermissions.toString(attributes.permissions())).as("as CCM's temp file leaves it").isEqualTo("rw-------");
        assertThat(inDl()).containsExactly("app.tar.gz");

        assertThat(apply(properties).status()).isEqualTo(Status.STABLE);
        assertThat(requests).hasSize(1);
    }

    @Test
    void withoutAChecksumTheFileIsDownloadedWhileMissingOrNotTheOwnersAndNotAgainWhileItIs() throws Exception {
        String properties = "ensure: present, url: URL/app.tar.gz, owner: OWNER, group: GROUP";
        assertThat(apply(properties).status()).isEqualTo(Status.CHANGED);
        Files.writeString(kept(), "edited, but CCM has no checksum to tell");
        assertThat(apply(properties).status()).isEqualTo(Status.STABLE);
        assertThat(requests).hasSize(1);

        Files.delete(kept());
        assertThat(apply(properties).status()).isEqualTo(Status.CHANGED);
        assertThat(Files.readAllBytes(kept())).isEqualTo(tarGz);
        assertThat(requests).hasSize(2);
    }

    @Test
    void aChecksumThatDiffersDownloadsAgainAndOneMatchingOnlyReownsTheFile() throws Exception {
        Files.writeString(kept(), "an older archive");
        ResourceReport r = apply("ensure: present, url: URL/app.tar.gz, checksum: SHA, owner: OWNER, group: GROUP");
        assertThat(r.status()).as(r.error()).isEqualTo(Status.CHANGED);
        assertThat(Files.readAllBytes(kept())).isEqualTo(tarGz);

        if (owner.equals("daemon")) {
            Files.setOwner(kept(), dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("root"));
            ResourceReport reowned = apply("ensure: present, url: URL/app.tar.gz, checksum: SHA, owner: OWNER, group: GROUP");
            assertThat(reowned.changes()).extracting(c -> c.describe()).containsExactly("owner root -> daemon");
            assertThat(Files.readAttributes(kept(), PosixFileAttributes.class).owner().getName()).isEqualTo("daemon");
        }
        assertThat(requests).hasSize(1);
    }

    @Test
    void basicAuthenticationAndHeadersReachTheServerAnAuthorizationHeaderWinning() throws Exception {
        ResourceReport r = apply("ensure: present, url: URL/app.tar.gz, owner: OWNER, group: GROUP, username: deploy, password: " + PASSWORD
                + ", headers: {X-Custom-Header: custom-value}");
        assertThat(r.status()).as(r.error()).isEqualTo(Status.CHANGED);
        String basic = "Basic " + Base64.getEncoder().encodeToString(("deploy:" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        assertThat(requests).containsExactly("/app.tar.gz " + basic + " custom-value");

        Files.delete(kept());
        apply("ensure: present, url: URL/app.tar.gz, owner: OWNER, group: GROUP, username: deploy, password: " + PASSWORD
                + ", headers: {Authorization: Bearer token123}");
        assertThat(requests.get(1)).isEqualTo("/app.tar.gz Bearer token123 -");

        Files.delete(kept());
        apply("ensure: present, url: URL/app.tar.gz, owner: OWNER, group: GROUP, username: deploy");
        assertThat(requests.get(2)).as("CCM authenticates only with both").isEqualTo("/app.tar.gz - -");
    }

    @Test
    void theCredentialsOfAUrlAreUsedAndNeverShown() throws Exception {
        String properties = "ensure: present, url: \"http://deploy:" + PASSWORD + "@127.0.0.1:" + server.getAddress().getPort()
                + "/app.tar.gz\", owner: OWNER, group: GROUP";
        Report plan = plan(properties);
        assertThat(plan.toString()).doesNotContain(PASSWORD).contains("to=http://REDACTED@127.0.0.1:");
        ResourceReport r = apply(properties);
        assertThat(r.status()).as(r.error()).isEqualTo(Status.CHANGED);
        assertThat(requests).containsExactly("/app.tar.gz Basic "
                + Base64.getEncoder().encodeToString(("deploy:" + PASSWORD).getBytes(StandardCharsets.UTF_8)) + " -");
    }

    @Test
    void thePasswordNeverShowsInAPlanOrAReport() throws Exception {
        String properties = "ensure: present, url: URL/broken.tar.gz, owner: OWNER, group: GROUP, username: deploy, password: " + PASSWORD
                + ", extract_parent: ROOT/opt/app";
        Report plan = plan(properties);
        assertThat(plan.toString()).doesNotContain(PASSWORD);
        assertThat(requests).as("a plan downloads nothing").isEmpty();
        Report failed = new Manifests(dir).apply(manifest(properties));
        ResourceReport r = resource(failed, "archive#" + kept());
        assertThat(r.error()).isEqualTo("cannot download " + url + "/broken.tar.gz: HTTP request failed with status 500");
        assertThat(failed.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void aChecksumMismatchLeavesNothing() throws Exception {
        ResourceReport r = apply("ensure: present, url: URL/app.tar.gz, checksum: invalid_checksum_that_will_not_match, owner: OWNER,"
                + " group: GROUP, extract_parent: ROOT/opt/app");
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.error()).isEqualTo("checksum mismatch for " + url + "/app.tar.gz: expected sha256 invalid_checksum_that_will_not_match,"
                + " got " + sha256 + "; " + kept() + " was left as it was");
        assertThat(inDl()).isEmpty();
        assertThat(dir.resolve("opt")).doesNotExist();
    }

    @Test
    void absentRemovesTheFileAndAPlanOnlySaysSo() throws Exception {
        Files.write(kept(), tarGz);
        String properties = "ensure: absent, url: URL/app.tar.gz, owner: OWNER, group: GROUP";
        ResourceReport planned = resource(plan(properties), "archive#" + kept());
        assertThat(planned.changes()).extracting(c -> c.describe()).containsExactly("file " + kept() + " -> absent");
        assertThat(kept()).exists();

        assertThat(apply(properties).status()).isEqualTo(Status.CHANGED);
        assertThat(kept()).doesNotExist();
        assertThat(apply(properties).status()).isEqualTo(Status.STABLE);
        assertThat(requests).isEmpty();
    }

    @Test
    void extractsIntoAMissingExtractParentThenCleansUpAndCreatesKeepsItDone() throws Exception {
        String properties = "ensure: present, url: URL/app.tar.gz, checksum: SHA, owner: OWNER, group: GROUP, extract_parent: ROOT/opt/app,"
                + " creates: ROOT/opt/app/app-1.0/README, cleanup: true";
        ResourceReport planned = resource(plan(properties), "archive#" + kept());
        assertThat(planned.changes()).extracting(c -> c.describe()).containsExactly("downloaded absent -> " + url + "/app.tar.gz",
                "extracted absent -> " + kept(), "file " + kept() + " -> absent");
        assertThat(dir.resolve("opt")).doesNotExist();

        ResourceReport first = apply(properties);
        assertThat(first.status()).as(first.error()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("opt/app/app-1.0/README")).hasContent("read me");
        assertThat(dir.resolve("opt/app/app-1.0/bin/run")).hasContent("#!/bin/sh\necho hi");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("opt/app")))).as("mkdir -p, 0755")
                .isEqualTo("rwxr-xr-x");
        assertThat(inDl()).as("cleaned up").isEmpty();

        assertThat(apply(properties).status()).isEqualTo(Status.STABLE);
        assertThat(requests).hasSize(1);
    }

    @Test
    void createsPreventsExtractingAgainAndItsLossExtractsTheKeptFileWithoutDownloading() throws Exception {
        String properties = "ensure: present, url: URL/app.tar.gz, checksum: SHA, owner: OWNER, group: GROUP, extract_parent: ROOT/opt,"
                + " creates: ROOT/opt/app-1.0/README";
        Files.createDirectories(dir.resolve("opt/app-1.0/bin"));
        Files.writeString(dir.resolve("opt/app-1.0/local.conf"), "mine\n");
        Files.writeString(dir.resolve("opt/app-1.0/bin/run"), "an older one\n");
        assertThat(apply(properties).status()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("opt/app-1.0/README")).hasContent("read me");
        assertThat(dir.resolve("opt/app-1.0/bin/run")).as("as CCM's tar overwrites it").hasContent("#!/bin/sh\necho hi");
        assertThat(dir.resolve("opt/app-1.0/local.conf")).as("CCM's tar merges into what is there").hasContent("mine");

        Files.writeString(dir.resolve("opt/app-1.0/bin/run"), "edited\n");
        assertThat(apply(properties).status()).as("creates exists: not extracted again").isEqualTo(Status.STABLE);
        assertThat(dir.resolve("opt/app-1.0/bin/run")).hasContent("edited");

        Files.delete(dir.resolve("opt/app-1.0/README"));
        ResourceReport again = apply(properties);
        assertThat(again.changes()).extracting(c -> c.describe()).containsExactly("extracted absent -> " + kept());
        assertThat(dir.resolve("opt/app-1.0/bin/run")).as("what the archive has is overwritten").hasContent("#!/bin/sh\necho hi");
        assertThat(requests).as("the kept file's checksum matches: not downloaded again").hasSize(1);
    }

    @Test
    void aCreatesTheArchiveDoesNotMakeFailsNamingIt() throws Exception {
        ResourceReport r = apply("ensure: present, url: URL/app.tar.gz, owner: OWNER, group: GROUP, extract_parent: ROOT/opt,"
                + " creates: ROOT/opt/never");
        assertThat(r.status()).isEqualTo(Status.FAILED);
        assertThat(r.error()).isEqualTo("failed to reach desired state: present: creates path missing: " + dir.resolve("opt/never"));
        assertThat(dir.resolve("opt/app-1.0/README")).hasContent("read me");
    }

    @Test
    void aZipIsExtractedToo() throws Exception {
        run(dir.resolve("tree"), "zip", "-qr", "../app.zip", "app-1.0");
        served.put("/app.zip", Files.readAllBytes(dir.resolve("app.zip")));
        Report report = new Manifests(dir).apply("""
                ccm:
                  resources:
                    - archive:
                        - ROOT/dl/app.zip: {ensure: present, url: URL/app.zip, owner: OWNER, group: GROUP, extract_parent: ROOT/opt}
                """.replace("URL", url).replace("OWNER", owner).replace("GROUP", group));
        ResourceReport r = resource(report, "archive#" + dir.resolve("dl/app.zip"));
        assertThat(r.status()).as(r.error()).isEqualTo(Status.CHANGED);
        assertThat(dir.resolve("opt/app-1.0/README")).hasContent("read me");
        assertThat(dir.resolve("dl/app.zip")).exists();
    }
}
