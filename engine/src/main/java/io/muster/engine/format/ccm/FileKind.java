package io.muster.engine.format.ccm;

import java.util.Set;

/**
 * CCM's {@code file}: a file ({@code present}) or directory, or none ({@code absent}); muster's {@code file}.
 * As CCM's model: ensure is required; the path absolute and canonical; owner, group and mode required unless
 * absent; {@code content} or {@code source}, not both; {@code force} only with absent, never for {@code /}. Neither
 * content nor source manages the attributes alone (an empty file is created when there is none). A directory's
 * missing parents are made, as CCM's {@code os.MkdirAll} makes them.
 */
final class FileKind implements CcmKind {
    private static final Set<String> ENSURE = Set.of("present", "absent", "directory");

    @Override
    public String name() {
        return "file";
    }

    @Override
    public Set<String> properties() {
        return Set.of("content", "source", "owner", "group", "mode", "force");
    }

    @Override
    public Translated translate(CcmResource r) {
        Translated out = Translated.of("file", r);
        CommonProperties.provider(r, Set.of("posix"));
        String ensure = Ensure.required(r, ENSURE);
        CcmPaths.requireCanonical(r, r.name(), r.mark(), "file path");
        boolean force = r.bool("force");
        if (force && !ensure.equals("absent")) {
            r.problem(r.markOf("force"), "'force: true' is only valid with 'ensure: absent', got 'ensure: " + ensure + "'");
        }
        if (force && r.name().equals("/")) r.problem(r.markOf("force"), "'force: true' cannot be used with the filesystem root");
        if (r.has("content") && r.has("source")) r.problem(r.markOf("source"), "'content' and 'source' are mutually exclusive");
        out.put("ensure", ensure, r.markOf("ensure"));
        if (force) out.put("force", true, r.markOf("force"));
        for (String attribute : new String[] {"owner", "group"}) {
            String value = r.string(attribute);
            if (value.isEmpty() && !ensure.equals("absent")) r.problem(r.markOf(attribute), attribute + " cannot be empty");
            if (!value.isEmpty()) out.put(attribute, value, r.markOf(attribute));
        }
        mode(r, ensure, out);
        if (ensure.equals("directory")) { // CCM makes the directory as os.MkdirAll does, and leaves content and source unread
            return out.put("parents", true, r.mark());
        }
        r.deferred("content").ifPresent(content -> out.putNode("content", content));
        r.deferred("source").ifPresent(source -> out.putNode("source", source));
        return out;
    }

    private static void mode(CcmResource r, String ensure, Translated out) {
        if (!r.has("mode")) {
            if (!ensure.equals("absent")) r.problem("mode cannot be empty");
            return;
        }
        Integer bits = FileModes.parse(r, "mode");
        if (bits == null) return;
        // CCM gives a directory the search bit of each class that may read or write it
        int mode = ensure.equals("directory") ? FileModes.directory(bits) : bits;
        out.put("mode", FileModes.format(mode), r.markOf("mode"));
    }
}
