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
import java.time.Duration;
import java.util.HexFormat;

/**
 * Where an archive comes from: an http(s) URL, or a file (relative to the manifest's directory, read as a
 * {@code file}'s {@code source} is: through links root owns only). {@link #copyTo} brings its bytes over and
 * returns their sha256.
 */
record ArchiveSource(URI url, Path file) {
    /** The most muster takes of an archive: a server that never stops sending must not fill the disk. */
    static final long MAX_SIZE = OpenFile.MAX_DIGEST;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    static ArchiveSource of(String source, Path directory) throws InvalidResourceException {
        if (!source.matches("(?i)[a-z][a-z0-9+.-]*://.*")) return new ArchiveSource(null, directory.resolve(source).normalize());
        try {
            URI url = new URI(source);
            String scheme = url.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                throw new InvalidResourceException("source", "expected an http(s) URL or a file, got the scheme '" + url.getScheme() + "'");
            }
            if (url.getHost() == null) throw new InvalidResourceException("source", "the URL '" + source + "' has no host");
            return new ArchiveSource(url, null);
        } catch (URISyntaxException e) {
            throw new InvalidResourceException("source", "not a URL: " + e.getMessage());
        }
    }

    boolean remote() {
        return url != null;
    }

    @Override
    public String toString() {
        return remote() ? url.toString() : file.toString();
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
            response = client.send(HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new IOException("cannot download " + url + ": " + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()), e);
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) throw new IOException("cannot download " + url + ": the server answered " + response.statusCode());
            byte[] buffer = new byte[1 << 16];
            long total = 0;
            for (int n; (n = body.read(buffer)) > 0; ) {
                total += n;
                if (total > MAX_SIZE) throw new IOException(url + " sent more than " + MAX_SIZE + " bytes, the most muster downloads");
                out.write(buffer, 0, n);
            }
        } finally {
            client.close();
        }
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
