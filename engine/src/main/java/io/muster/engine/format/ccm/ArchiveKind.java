package io.muster.engine.format.ccm;

import java.util.Set;

/**
 * CCM's {@code archive}: an archive downloaded from {@code url} (to {@code name}) and extracted into
 * {@code extract_parent}, once ({@code creates}); muster's {@code archive} extracts it into that directory, its
 * sha256 {@code checksum} checked first, owned by {@code owner}/{@code group}. CCM's model validation applies in
 * full; muster keeps no copy of the downloaded file, so an archive with no {@code extract_parent} (a download only)
 * and {@code ensure: absent} are refused, as are {@code headers}, {@code username} and {@code password}.
 */
final class ArchiveKind implements CcmKind {
    private static final String[] SUFFIXES = {".tar.gz", ".tgz", ".tar", ".zip"};

    @Override
    public String name() {
        return "archive";
    }

    @Override
    public Set<String> properties() {
        return Set.of("url", "headers", "username", "password", "checksum", "extract_parent", "cleanup", "creates", "owner", "group");
    }

    @Override
    public Translated translate(CcmResource r) {
        Translated out = Translated.of("archive", r);
        CommonProperties.provider(r, Set.of("http"));
        String ensure = Ensure.required(r, Set.of("present", "absent"));
        String url = r.string("url");
        if (url.isEmpty()) r.problem(r.markOf("url"), "url cannot be empty");
        else if (!url.matches("[a-zA-Z][a-zA-Z0-9+.-]*://.+")) r.problem(r.markOf("url"), "url must be absolute (include scheme like http:// or https://)");
        else if (type(url.replaceFirst("[?#].*", "")) == null) r.problem(r.markOf("url"), "url filename must end in .zip, .tar.gz, .tgz, or .tar");
        if (type(r.name()) == null) r.problem("name must end in .zip, .tar.gz, .tgz, or .tar");
        else if (!url.isEmpty() && type(url.replaceFirst("[?#].*", "")) != null && !type(url.replaceFirst("[?#].*", "")).equals(type(r.name()))) {
            r.problem(r.markOf("url"), "url and name must have the same archive type: url is " + type(url) + ", name is " + type(r.name()));
        }
        boolean cleanup = r.bool("cleanup");
        String parent = r.string("extract_parent");
        String creates = r.string("creates");
        if (cleanup && parent.isEmpty()) r.problem(r.markOf("cleanup"), "cleanup requires extract_parent to be set");
        if (cleanup && creates.isEmpty()) r.problem(r.markOf("cleanup"), "cleanup requires creates to be set");
        CcmPaths.requireCanonical(r, r.name(), r.mark(), "file path");
        if (!creates.isEmpty() && !CcmPaths.canonical(creates)) r.problem(r.markOf("creates"), "creates path must be absolute");
        if (!parent.isEmpty() && !CcmPaths.canonical(parent)) r.problem(r.markOf("extract_parent"), "extract_parent path must be absolute");
        for (String attribute : new String[] {"owner", "group"}) {
            String value = r.string(attribute);
            if (value.isEmpty()) r.problem(r.markOf(attribute), attribute + " cannot be empty");
            else out.put(attribute, value, r.markOf(attribute));
        }
        for (String unsupported : new String[] {"headers", "username", "password"}) {
            r.entry(unsupported).ifPresent(e -> r.problem(e.keyMark(), unsupported + " is not supported: muster's archive downloads without"
                    + " extra headers or credentials"));
        }
        if (ensure.equals("absent")) r.problem(r.markOf("ensure"), "ensure: absent is not supported: muster keeps no downloaded archive to remove");
        if (parent.isEmpty()) r.problem("an archive without extract_parent (a download only) is not supported; use a file or exec resource");
        out.put("path", parent, r.markOf("extract_parent"));
        out.put("source", url, r.markOf("url"));
        if (!creates.isEmpty()) out.put("creates", creates, r.markOf("creates"));
        String checksum = r.string("checksum");
        if (!checksum.isEmpty()) out.put("checksum", checksum, r.markOf("checksum"));
        return out;
    }

    private static String type(String file) {
        for (String suffix : SUFFIXES) {
            if (file.endsWith(suffix)) return suffix.equals(".tgz") ? ".tar.gz" : suffix;
        }
        return null;
    }
}
