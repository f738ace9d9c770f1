package io.muster.engine.resource.archive;

import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.util.fs.OpenFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Where an archive comes from: an http(s) URL, or a file (relative to the manifest's directory, read as a
 * {@code file}'s {@code source} is: through links root owns only). {@link #copyTo} brings its bytes over and
 * returns their sha256. A URL is asked for with {@code headers} and, as HTTP basic authentication, the
 * {@code credentials} (else those written in the URL), unless the headers carry an {@code Authorization} of their
 * own. Credentials never show: the URL is named with {@code REDACTED} in place of any it holds.
 */
record ArchiveSource(URI url, Path file, Map<String, String> headers, Credentials credentials) {
    /** A user and password for basic authentication; its password is never shown. */
    record Credentials(String username, String password) {
        @Override
        public String toString() {
            return "Credentials[username=" + username + ", password=(sensitive)]";
        }
    }

    /** The most muster takes of an archive: a server that never stops sending must not fill the disk. */
    static final long MAX_SIZE = OpenFile.MAX_DIGEST;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    /** Headers Java's HTTP client sets itself and refuses to take from a caller. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    static ArchiveSource of(String source, Path directory, Map<String, String> headers, Credentials credentials)
            throws InvalidResourceException {
        if (!source.matches("(?i)[a-z][a-z0-9+.-]*://.*")) {
            return new ArchiveSource(null, directory.resolve(source).normalize(), inOrder(headers), credentials);
        }
        try {
            URI url = new URI(source);
            String scheme = url.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new InvalidResourceException("source", "expected an http(s) URL or a file, got the scheme '" + url.getScheme() + "'");
            }
            if (url.getHost() == null) throw new InvalidResourceException("source", "the URL has no host");
            return new ArchiveSource(url, null, inOrder(headers), credentials);
        } catch (URISyntaxException e) {
            throw new InvalidResourceException("source", "not a URL: " + e.getReason() + " at index " + e.getIndex()); // not quoted: it may hold a password
        }
    }

    /** The headers as written, sent in that order. */
    private static Map<String, String> inOrder(Map<String, String> headers) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** Headers and credentials: for a URL only, the headers ones a client may send, a user with a password. */
    void validate() throws InvalidResourceException {
        if (credentials != null && (credentials.username() == null || credentials.password() == null)) {
            throw new InvalidResourceException(credentials.username() == null ? "username" : "password",
                    "username and password go together (HTTP basic authentication)");
        }
        if (!remote() && (!headers.isEmpty() || credentials != null)) {
            throw new InvalidResourceException(headers.isEmpty() ? "username" : "headers", "only a URL source is asked for with headers or credentials");
        }
        for (var header : headers.entrySet()) {
            if (!header.getKey().matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new InvalidResourceException("headers", "'" + header.getKey() + "' is not an HTTP header name");
            }
            if (RESTRICTED.contains(header.getKey().toLowerCase(java.util.Locale.ROOT))) {
                throw new InvalidResourceException("headers", header.getKey() + " is set by the HTTP client itself, not by a manifest");
            }
            if (header.getValue().indexOf('\r') >= 0 || header.getValue().indexOf('\n') >= 0) {
                throw new InvalidResourceException("headers", "the value of " + header.getKey() + " has a line break");
            }
        }
    }

    boolean remote() {
        return url != null;
    }

    /** The URL (credentials in it replaced by {@code REDACTED}, as CCM shows them) or the file. */
    @Override
    public String toString() {
        if (!remote()) return file.toString();
        if (url.getRawUserInfo() == null) return url.toString();
        return url.toString().replace(url.getRawUserInfo() + "@", "REDACTED@");
    }

    /** The sha256 of a local file, as it is now (streamed). */
    String sha256() throws IOException {
        MessageDigest digest = sha256Digest();
        try (OpenFile opened = OpenFile.regular(file)) {
            opened.digest(digest);
        } catch (IOException e) {
            throw new IOException("source " + e.getMessage(), e);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Writes the archive's bytes to {@code out} and returns their sha256. */
    String copyTo(OutputStream out) throws IOException, InterruptedException {
        MessageDigest digest = sha256Digest();
        try (DigestOutputStream hashed = new DigestOutputStream(out, digest)) {
            if (remote()) download(hashed);
            else copyFile(hashed);
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private void copyFile(OutputStream out) throws IOException {
        try (OpenFile opened = OpenFile.regular(file)) {
            opened.transferTo(out, MAX_SIZE);
        } catch (IOException e) {
            throw new IOException("source " + e.getMessage(), e);
        }
    }

    private void download(OutputStream out) throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpResponse<InputStream> response;
        try {
            response = client.send(request(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new IOException("cannot download " + this + ": " + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()), e);
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                throw new IOException("cannot download " + this + ": HTTP request failed with status " + response.statusCode());
            }
            byte[] buffer = new byte[1 << 16];
            long total = 0;
            for (int n; (n = body.read(buffer)) > 0; ) {
                total += n;
                if (total > MAX_SIZE) throw new IOException(this + " sent more than " + MAX_SIZE + " bytes, the most muster downloads");
                out.write(buffer, 0, n);
            }
        } finally {
            client.close();
        }
    }

    /** A GET of the URL without its user info, with the headers and the basic authentication. */
    private HttpRequest request() {
        URI plain = url;
        if (url.getRawUserInfo() != null) {
            String query = url.getRawQuery() == null ? "" : "?" + url.getRawQuery();
            plain = URI.create(url.getScheme() + "://" + url.getHost() + (url.getPort() == -1 ? "" : ":" + url.getPort())
                    + url.getRawPath() + query);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(plain).GET();
        headers.forEach(request::header);
        String basic = basicAuthorization();
        if (basic != null && headers.keySet().stream().noneMatch(h -> h.equalsIgnoreCase("Authorization"))) {
            request.header("Authorization", basic);
        }
        return request.build();
    }

    /** {@code Basic …} of the credentials, else of the user info written in the URL, else null. */
    private String basicAuthorization() {
        String pair;
        if (credentials != null) pair = credentials.username() + ":" + credentials.password();
        else if (url.getUserInfo() != null) pair = url.getUserInfo().contains(":") ? url.getUserInfo() : url.getUserInfo() + ":";
        else return null;
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
