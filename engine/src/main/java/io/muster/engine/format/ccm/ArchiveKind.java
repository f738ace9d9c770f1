package io.muster.engine.format.ccm;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * CCM's {@code archive}: an archive downloaded from {@code url} to the file {@code name}, kept there, and extracted
 * into {@code extract_parent} when set; muster's {@code archive} with the file kept ({@code file}, or, without
 * {@code extract_parent}, {@code extract: false} and the name as its path), {@code parents: true} (CCM makes
 * {@code extract_parent} as {@code mkdir -p} does), {@code cleanup}, {@code ensure}, {@code headers} and basic
 * authentication ({@code username} and {@code password}, used only when both are set, as CCM uses them). CCM's
 * model validation applies in full.
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
        url(r, r.string("url"));
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
        out.put("ensure", ensure, r.markOf("ensure"));
        out.put("source", r.string("url"), r.markOf("url"));
        if (parent.isEmpty()) {
            out.put("path", r.name(), r.mark()).put("extract", false, r.mark());
        } else {
            out.put("path", parent, r.markOf("extract_parent")).put("file", r.name(), r.mark()).put("parents", true, r.markOf("extract_parent"));
        }
        if (cleanup) out.put("cleanup", true, r.markOf("cleanup"));
        if (!creates.isEmpty()) out.put("creates", creates, r.markOf("creates"));
        String checksum = r.string("checksum");
        if (!checksum.isEmpty()) out.put("checksum", checksum, r.markOf("checksum"));
        headers(r, out);
        String username = r.string("username");
        String password = r.string("password");
        if (!username.isEmpty() && !password.isEmpty()) { // CCM authenticates only with both
            out.put("username", username, r.markOf("username")).put("password", password, r.markOf("password"));
        }
        return out;
    }

    /** CCM's checks of the URL and of the name's archive type, in its words. */
    private static void url(CcmResource r, String url) {
        String type = type(r.name());
        if (type == null) r.problem("name must end in .zip, .tar.gz, .tgz, or .tar");
        if (url.isEmpty()) {
            r.problem(r.markOf("url"), "url cannot be empty");
            return;
        }
        if (!url.matches("[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            r.problem(r.markOf("url"), "url must be absolute (include scheme like http:// or https://)");
            return;
        }
        String path = url.replaceFirst("^[a-zA-Z][a-zA-Z0-9+.-]*:(//[^/?#]*)?", "").replaceFirst("[?#].*", "").replaceFirst("/+$", "");
        String file = path.substring(path.lastIndexOf('/') + 1);
        if (file.isEmpty() || file.equals(".")) {
            r.problem(r.markOf("url"), "url must have a filename in the path");
        } else if (type(file) == null) {
            r.problem(r.markOf("url"), "url filename must end in .zip, .tar.gz, .tgz, or .tar");
        } else if (type != null && !type(file).equals(type)) {
            r.problem(r.markOf("url"), "url and name must have the same archive type: url is " + type(file) + ", name is " + type);
        }
    }

    /** {@code headers}: a map of names to strings. */
    private static void headers(CcmResource r, Translated out) {
        Object headers = r.value("headers");
        if (headers == null) return;
        if (!(headers instanceof Map<?, ?> map)) {
            r.problem(r.markOf("headers"), "headers: expected a map of header names to values");
            return;
        }
        Map<String, String> values = new LinkedHashMap<>();
        map.forEach((k, v) -> values.put(String.valueOf(k), v == null ? "" : String.valueOf(v)));
        if (!values.isEmpty()) out.put("headers", values, r.markOf("headers"));
    }

    /** CCM's archive type of a file name (its suffix, in any case): tar.gz (also .tgz), tar or zip; null for another. */
    private static String type(String file) {
        String lower = file.toLowerCase(Locale.ROOT);
        for (String suffix : SUFFIXES) {
            if (lower.endsWith(suffix)) return suffix.equals(".tgz") ? "tar.gz" : suffix.substring(1);
        }
        return null;
    }
}
