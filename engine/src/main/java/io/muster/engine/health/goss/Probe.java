package io.muster.engine.health.goss;

import io.muster.engine.process.ProcessRunner;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the system has for one goss rule: each attribute's value, looked up when first asked (a file's digest only
 * when a rule asks for it, a command run once for its exit status and its output). A thing that does not exist
 * answers its {@code exists} (or {@code installed}, {@code running}...) as false and every other attribute with
 * that, as goss reports it.
 */
abstract class Probe {
    /** The thing is not there: what its other attributes say. */
    static final class Absent extends Exception {
        Absent(String message) {
            super(message, null, false, false);
        }
    }

    protected final Gossfile.Rule rule;
    private final Map<String, Object> seen = new HashMap<>();

    Probe(Gossfile.Rule rule) {
        this.rule = rule;
    }

    static Probe of(Gossfile.Rule rule, Duration timeout) {
        return switch (rule.type()) {
            case "file" -> new FileProbe(rule);
            case "package" -> new PackageProbe(rule, timeout);
            case "service" -> new ServiceProbe(rule, timeout);
            case "user", "group" -> new AccountProbe(rule, timeout);
            case "command" -> new CommandProbe(rule, timeout);
            case "process" -> new ProcessProbe(rule);
            case "port" -> new PortProbe(rule);
            case "http" -> new HttpProbe(rule, timeout);
            case "addr" -> new AddrProbe(rule, timeout);
            case "kernel-param" -> new KernelParamProbe(rule);
            case "mount" -> new MountProbe(rule);
            case "dns" -> new DnsProbe(rule);
            case "interface" -> new InterfaceProbe(rule);
            default -> throw new IllegalStateException(rule.type());
        };
    }

    /** Null when the assertion holds, else why not. */
    final String problem(Gossfile.Assertion a) throws InterruptedException {
        try {
            if (!seen.containsKey(a.attribute())) seen.put(a.attribute(), value(a.attribute()));
            return a.mismatch(seen.get(a.attribute()));
        } catch (Absent e) {
            return e.getMessage();
        } catch (IOException | RuntimeException e) {
            return "cannot look: " + e.getMessage();
        }
    }

    /** The value of {@code attribute} on this system. */
    abstract Object value(String attribute) throws Absent, IOException, InterruptedException;

    /** The setting's value in milliseconds (goss writes them so), else {@code fallback}, never beyond the check's timeout. */
    final Duration millis(String setting, Duration fallback, Duration timeout) {
        Object value = rule.settings().get(setting);
        BigDecimal ms = value == null ? null : Matcher.asNumber(value);
        Duration d = ms == null ? fallback : Duration.ofMillis(ms.longValue());
        return timeout.isZero() || d.compareTo(timeout) < 0 ? d : timeout;
    }

    static ProcessRunner.Outcome run(Duration timeout, String... argv) throws IOException, InterruptedException {
        return ProcessRunner.in(Path.of("/"), timeout).run(List.of(argv), "'" + String.join(" ", argv) + "'");
    }

    static final class FileProbe extends Probe {
        private final Path path;

        FileProbe(Gossfile.Rule rule) {
            super(rule);
            this.path = Path.of(rule.name());
        }

        @Override
        Object value(String attribute) throws Absent, IOException {
            boolean exists = Files.exists(path, LinkOption.NOFOLLOW_LINKS);
            if (attribute.equals("exists")) return exists;
            if (!exists) throw new Absent("expected the file to exist, it does not");
            return switch (attribute) {
                case "filetype" -> Files.isSymbolicLink(path) ? "symlink" : Files.isDirectory(path) ? "directory" : Files.isRegularFile(path) ? "file"
                        : "other";
                case "mode" -> String.format(Locale.ROOT, "%04o", (Integer) Files.getAttribute(path, "unix:mode") & 07777);
                case "size" -> Files.size(path);
                case "owner" -> Files.getOwner(path).getName();
                case "group" -> Files.readAttributes(path, java.nio.file.attribute.PosixFileAttributes.class).group().getName();
                case "uid" -> Files.getAttribute(path, "unix:uid");
                case "gid" -> Files.getAttribute(path, "unix:gid");
                case "contents" -> new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
                case "md5" -> digest("MD5");
                case "sha256" -> digest("SHA-256");
                case "sha512" -> digest("SHA-512");
                case "linked-to", "linkedto" -> Files.isSymbolicLink(path) ? Files.readSymbolicLink(path).toString() : "";
                default -> throw new IllegalStateException(attribute);
            };
        }

        private String digest(String algorithm) throws IOException {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(Files.readAllBytes(path)));
            } catch (NoSuchAlgorithmException e) {
                throw new IOException(algorithm + " is not available", e);
            }
        }
    }

    /** dpkg's view (rpm's where there is no dpkg): installed, and the versions installed. */
    static final class PackageProbe extends Probe {
        private final Duration timeout;

        PackageProbe(Gossfile.Rule rule, Duration timeout) {
            super(rule);
            this.timeout = timeout;
        }

        @Override
        Object value(String attribute) throws Absent, IOException, InterruptedException {
            List<String> versions = new ArrayList<>();
            if (Files.isExecutable(Path.of("/usr/bin/dpkg-query"))) {
                ProcessRunner.Outcome out = run(timeout, "/usr/bin/dpkg-query", "-W", "-f", "${Status}\\t${Version}\\n", rule.name());
                for (String line : out.stdout().text().split("\n")) {
                    String[] parts = line.split("\t");
                    if (parts.length == 2 && parts[0].endsWith(" installed")) versions.add(parts[1]);
                }
            } else if (Files.isExecutable(Path.of("/usr/bin/rpm"))) {
                ProcessRunner.Outcome out = run(timeout, "/usr/bin/rpm", "-q", "--qf", "%{VERSION}-%{RELEASE}\\n", rule.name());
                if (out.exitCode() == 0) for (String line : out.stdout().text().strip().split("\n")) versions.add(line.strip());
            } else {
                throw new IOException("neither dpkg nor rpm is here");
            }
            if (attribute.equals("installed")) return !versions.isEmpty();
            if (versions.isEmpty()) throw new Absent("expected the package to be installed, it is not");
            return versions;
        }
    }

    /** systemd's view where systemd runs, else the init script's and the rc links'. */
    static final class ServiceProbe extends Probe {
        private final Duration timeout;

        ServiceProbe(Gossfile.Rule rule, Duration timeout) {
            super(rule);
            this.timeout = timeout;
        }

        @Override
        Object value(String attribute) throws IOException, InterruptedException {
            boolean systemd = Files.isDirectory(Path.of("/run/systemd/system"));
            String name = rule.name();
            if (attribute.equals("running")) {
                if (systemd) return run(timeout, "systemctl", "is-active", "--quiet", name).exitCode() == 0;
                Path script = Path.of("/etc/init.d", name);
                return Files.isExecutable(script) && run(timeout, script.toString(), "status").exitCode() == 0;
            }
            if (systemd) return run(timeout, "systemctl", "is-enabled", "--quiet", name).exitCode() == 0;
            for (int level = 2; level <= 5; level++) {
                Path dir = Path.of("/etc/rc" + level + ".d");
                if (!Files.isDirectory(dir)) continue;
                try (DirectoryStream<Path> links = Files.newDirectoryStream(dir, "S[0-9][0-9]" + name)) {
                    if (links.iterator().hasNext()) return true;
                }
            }
            return false;
        }
    }

    /** getent's view of a user or a group; a user's groups as id lists them. */
    static final class AccountProbe extends Probe {
        private final Duration timeout;
        private String[] entry;

        AccountProbe(Gossfile.Rule rule, Duration timeout) {
            super(rule);
            this.timeout = timeout;
        }

        @Override
        Object value(String attribute) throws Absent, IOException, InterruptedException {
            boolean user = rule.type().equals("user");
            if (entry == null) {
                ProcessRunner.Outcome out = run(timeout, "getent", user ? "passwd" : "group", rule.name());
                entry = out.exitCode() == 0 ? out.stdout().text().strip().split(":", -1) : new String[0];
            }
            if (attribute.equals("exists")) return entry.length > 0;
            if (entry.length == 0) throw new Absent("expected the " + rule.type() + " to exist, it does not");
            return switch (attribute) {
                case "uid" -> Long.parseLong(entry[2]);
                case "gid" -> Long.parseLong(entry[user ? 3 : 2]);
                case "home" -> entry[5];
                case "shell" -> entry[6];
                case "groups" -> List.of(run(timeout, "id", "-Gn", rule.name()).stdout().text().strip().split("\\s+"));
                default -> throw new IllegalStateException(attribute);
            };
        }
    }

    /** The command ({@code exec}, else the name) through /bin/sh, run once: goss's default limit is 10 s. */
    static final class CommandProbe extends Probe {
        private final Duration timeout;
        private ProcessRunner.Outcome outcome;

        CommandProbe(Gossfile.Rule rule, Duration timeout) {
            super(rule);
            this.timeout = timeout;
        }

        @Override
        Object value(String attribute) throws IOException, InterruptedException {
            if (outcome == null) {
                Object exec = rule.settings().getOrDefault("exec", rule.name());
                outcome = run(millis("timeout", Duration.ofSeconds(10), timeout), "/bin/sh", "-c", String.valueOf(exec));
            }
            return switch (attribute) {
                case "exit-status" -> outcome.exitCode();
                case "stdout" -> outcome.stdout().text();
                case "stderr" -> outcome.stderr().text();
                default -> throw new IllegalStateException(attribute);
            };
        }
    }

    /** Whether a process of that name (its comm, as ps shows it) runs. */
    static final class ProcessProbe extends Probe {
        ProcessProbe(Gossfile.Rule rule) {
            super(rule);
        }

        @Override
        Object value(String attribute) throws IOException {
            try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path p : processes) {
                    try {
                        if (Files.readString(p.resolve("comm")).strip().equals(rule.name())) return true;
                    } catch (IOException gone) { // it ended while we looked
                    }
                }
            }
            return false;
        }
    }

    /** A listening socket from the kernel's tables: {@code tcp:80}, {@code tcp6:443}, {@code udp:53} ({@code 80} alone is tcp). */
    static final class PortProbe extends Probe {
        PortProbe(Gossfile.Rule rule) {
            super(rule);
        }

        @Override
        Object value(String attribute) throws IOException {
            String name = rule.name();
            int colon = name.indexOf(':');
            String protocol = colon < 0 ? "tcp" : name.substring(0, colon);
            int port;
            try {
                port = Integer.parseInt(colon < 0 ? name : name.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IOException("expected a port like tcp:80, got '" + name + "'");
            }
            List<String> tables = switch (protocol) {
                case "tcp" -> List.of("tcp", "tcp6");
                case "udp" -> List.of("udp", "udp6");
                case "tcp6", "udp6" -> List.of(protocol);
                default -> throw new IOException("expected tcp, tcp6, udp or udp6, got '" + protocol + "'");
            };
            TreeSet<String> ips = new TreeSet<>();
            for (String table : tables) {
                Path file = Path.of("/proc/net", table);
                if (!Files.exists(file)) continue;
                List<String> lines = Files.readAllLines(file);
                for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                    String[] f = line.strip().split("\\s+");
                    if (f.length < 4) continue;
                    String[] local = f[1].split(":");
                    boolean listening = table.startsWith("tcp") ? f[3].equals("0A") : f[3].equals("07");
                    if (listening && Integer.parseInt(local[1], 16) == port) ips.add(address(local[0]));
                }
            }
            return attribute.equals("listening") ? !ips.isEmpty() : List.copyOf(ips);
        }

        /** An address as /proc/net writes it: 32-bit words in the host's order (little-endian here). */
        private static String address(String hex) throws UnknownHostException {
            byte[] bytes = new byte[hex.length() / 2];
            for (int word = 0; word < bytes.length / 4; word++) {
                for (int i = 0; i < 4; i++) {
                    bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(word * 8 + (3 - i) * 2, word * 8 + (3 - i) * 2 + 2), 16);
                }
            }
            return text(InetAddress.getByAddress(bytes));
        }

        /** An address as Go prints it: an IPv6 one with its longest run of zero groups as {@code ::} ({@code ::1}). */
        static String text(InetAddress address) {
            String full = address.getHostAddress();
            if (!full.contains(":")) return full;
            String[] groups = full.split(":");
            int bestStart = -1;
            int bestLength = 1; // a single zero group stays as it is (RFC 5952)
            for (int i = 0; i < groups.length; ) {
                int j = i;
                while (j < groups.length && groups[j].equals("0")) j++;
                if (j - i > bestLength) {
                    bestStart = i;
                    bestLength = j - i;
                }
                i = j == i ? i + 1 : j;
            }
            if (bestStart < 0) return full;
            return String.join(":", Arrays.copyOfRange(groups, 0, bestStart)) + "::"
                    + String.join(":", Arrays.copyOfRange(groups, bestStart + bestLength, groups.length));
        }
    }

    /** One request, as goss makes it: 5 s by default, redirects followed unless told not to. */
    static final class HttpProbe extends Probe {
        private final Duration timeout;
        private HttpResponse<String> response;

        HttpProbe(Gossfile.Rule rule, Duration timeout) {
            super(rule);
            this.timeout = timeout;
        }

        @Override
        Object value(String attribute) throws IOException, InterruptedException {
            if (response == null) response = request();
            return switch (attribute) {
                case "status" -> response.statusCode();
                case "body" -> response.body();
                case "headers" -> {
                    List<String> headers = new ArrayList<>();
                    response.headers().map().forEach((k, values) -> values.forEach(v -> headers.add(canonical(k) + ": " + v)));
                    yield headers;
                }
                default -> throw new IllegalStateException(attribute);
            };
        }

        /** A header's name as Go writes it, so rules match as they do under goss: {@code x-app} is {@code X-App}. */
        private static String canonical(String name) {
            StringBuilder out = new StringBuilder(name.length());
            boolean upper = true;
            for (char c : name.toCharArray()) {
                out.append(upper ? Character.toUpperCase(c) : Character.toLowerCase(c));
                upper = c == '-';
            }
            return out.toString();
        }

        private HttpResponse<String> request() throws IOException, InterruptedException {
            Map<String, Object> s = rule.settings();
            Duration limit = millis("timeout", Duration.ofSeconds(5), timeout);
            HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(limit)
                    .followRedirects(Boolean.TRUE.equals(s.get("no-follow-redirects")) ? HttpClient.Redirect.NEVER : HttpClient.Redirect.NORMAL);
            if (Boolean.TRUE.equals(s.get("allow-insecure"))) client.sslContext(InsecureTls.context());
            String body = s.get("request-body") == null ? "" : String.valueOf(s.get("request-body"));
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(rule.name())).timeout(limit)
                    .method(String.valueOf(s.getOrDefault("method", "GET")).toUpperCase(Locale.ROOT),
                            body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            if (s.get("username") != null) {
                String credentials = s.get("username") + ":" + s.getOrDefault("password", "");
                request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
            }
            if (s.get("request-headers") instanceof List<?> headers) {
                for (Object header : headers) {
                    String h = String.valueOf(header);
                    int colon = h.indexOf(':');
                    if (colon > 0) request.header(h.substring(0, colon).strip(), h.substring(colon + 1).strip());
                }
            }
            try (HttpClient c = client.build()) {
                return c.send(request.build(), HttpResponse.BodyHandlers.ofString());
            }
        }
    }

    /** Whether a connection opens: {@code tcp://host:port}, goss's 500 ms by default. */
    static final class AddrProbe extends Probe {
        private final Duration timeout;

        AddrProbe(Gossfile.Rule rule, Duration timeout) {
            super(rule);
            this.timeout = timeout;
        }

        @Override
        Object value(String attribute) throws IOException {
            URI address = URI.create(rule.name());
            if (!"tcp".equals(address.getScheme()) || address.getHost() == null || address.getPort() < 0) {
                throw new IOException("expected an address like tcp://host:port, got '" + rule.name() + "'");
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address.getHost(), address.getPort()),
                        (int) millis("timeout", Duration.ofMillis(500), timeout).toMillis());
                return true;
            } catch (IOException e) {
                return false;
            }
        }
    }

    /** A sysctl's value: {@code net.ipv4.ip_forward} is /proc/sys/net/ipv4/ip_forward. */
    static final class KernelParamProbe extends Probe {
        KernelParamProbe(Gossfile.Rule rule) {
            super(rule);
        }

        @Override
        Object value(String attribute) throws IOException {
            return Files.readString(Path.of("/proc/sys", rule.name().replace('.', '/'))).strip();
        }
    }

    /** A mount point from /proc/mounts (the last mount there wins, as it hides the others). */
    static final class MountProbe extends Probe {
        MountProbe(Gossfile.Rule rule) {
            super(rule);
        }

        @Override
        Object value(String attribute) throws Absent, IOException {
            String[] found = null;
            for (String line : Files.readAllLines(Path.of("/proc/mounts"))) {
                String[] f = line.split(" ");
                if (f.length >= 4 && f[1].replace("\\040", " ").equals(rule.name())) found = f;
            }
            if (attribute.equals("exists")) return found != null;
            if (found == null) throw new Absent("expected a mount at " + rule.name() + ", there is none");
            return switch (attribute) {
                case "source" -> found[0];
                case "filesystem" -> found[2];
                case "opts" -> List.of(found[3].split(","));
                default -> throw new IllegalStateException(attribute);
            };
        }
    }

    /** What the resolver makes of a name. */
    static final class DnsProbe extends Probe {
        DnsProbe(Gossfile.Rule rule) {
            super(rule);
        }

        @Override
        Object value(String attribute) {
            String name = rule.name().replaceFirst("^(A|AAAA):", "");
            List<String> addresses = new ArrayList<>();
            try {
                for (InetAddress a : InetAddress.getAllByName(name)) addresses.add(a.getHostAddress());
            } catch (UnknownHostException e) { // not resolvable: no addresses
            }
            return attribute.equals("resolvable") ? !addresses.isEmpty() : addresses;
        }
    }

    /** A network interface: its addresses as {@code 10.0.0.1/24}, its MTU. */
    static final class InterfaceProbe extends Probe {
        InterfaceProbe(Gossfile.Rule rule) {
            super(rule);
        }

        @Override
        Object value(String attribute) throws Absent, IOException {
            NetworkInterface nic = NetworkInterface.getByName(rule.name());
            if (attribute.equals("exists")) return nic != null;
            if (nic == null) throw new Absent("expected the interface to exist, it does not");
            if (attribute.equals("mtu")) return nic.getMTU();
            List<String> addresses = new ArrayList<>();
            for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                addresses.add(a.getAddress().getHostAddress().replaceFirst("%.*", "") + "/" + a.getNetworkPrefixLength());
            }
            return addresses;
        }
    }
}
