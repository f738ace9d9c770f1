package io.muster.engine.format.mgmt;

import io.muster.engine.manifest.YNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * mgmt's {@code file}: the path (default: the name, or {@code dirname} + {@code basename}) ends in {@code /} for a
 * directory; {@code state} is {@code exists}, {@code absent} or unset; {@code mode} is octal text, so an unquoted
 * {@code 0741} (read as the number 741) means 0741; with no {@code state} the file is managed only where it exists
 * ({@code create: false}), as mgmt creates nothing then; a symbolic mode ({@code u=rwx,go=rx}, {@code g=rw})
 * sets the classes it names and keeps the others as the file has them; {@code owner: 1} is uid 1; {@code symlink} makes the path a
 * link to {@code source}; a {@code source} directory with {@code recurse} is copied as a tree, and a directory with
 * {@code recurse} and no source is made with its missing parents ({@code mkdir -p}). What mgmt's file
 * refuses is refused ({@link FileValidation}).
 */
final class FileTranslation implements KindTranslation {

    @Override
    public String nativeKind() {
        return "file";
    }

    @Override
    public Map<String, YNode> properties(MgmtResource r) {
        r.refuse("fragments", "a file made of fragments; use content or source");
        String path = path(r);
        boolean directory = path.endsWith("/");
        FileValidation.check(r, path);
        Map<String, YNode> out = new LinkedHashMap<>();
        out.put("path", Node.text(path, r.markOf("path")));
        Optional<String> state = r.string("state");
        boolean absent = state.equals(Optional.of("absent"));
        if (state.isPresent() && !absent && !state.get().equals("exists")) r.problem("state", "expected exists or absent, got '" + state.get() + "'");
        Optional<String> source = r.string("source");
        if (absent) {
            out.put("ensure", Node.text("absent", r.markOf("state")));
        } else if (r.bool("symlink")) {
            out.put("ensure", Node.text("link", r.markOf("symlink")));
            source.ifPresent(s -> out.put("target", Node.text(s, r.markOf("source"))));
        } else {
            if (directory) out.put("ensure", Node.text("directory", r.markOf("path")));
            // no state: mgmt manages what exists and creates nothing
            if (state.isEmpty()) out.put("create", new YNode.Scalar(false, r.markOf("path")));
            if (!directory) r.node("content").ifPresent(c -> out.put("content", Node.text(c instanceof YNode.Scalar s ? s.value().toString() : "", c.mark())));
            if (source.isPresent() && source.get().endsWith("/") != directory) {
                r.problem("source", "the path and the source must both be directories (ending in /) or both not be");
            }
            // a source directory without recurse is refused (FileValidation): the native file would refuse it again
            if (!directory || r.bool("recurse")) source.ifPresent(s -> out.put("source", Node.text(s, r.markOf("source"))));
            if (source.isPresent() && directory && r.bool("recurse")) out.put("recurse", new YNode.Scalar(true, r.markOf("recurse")));
            // mgmt makes a directory with recurse and nothing to copy as mkdir -p
            if (source.isEmpty() && directory && r.bool("recurse")) out.put("parents", new YNode.Scalar(true, r.markOf("recurse")));
        }
        r.string("owner").ifPresent(o -> out.put("owner", Node.text(o, r.markOf("owner"))));
        r.string("group").ifPresent(g -> out.put("group", Node.text(g, r.markOf("group"))));
        mode(r).ifPresent(m -> out.put("mode", Node.text(m, r.markOf("mode"))));
        if (r.bool("force")) out.put("force", new YNode.Scalar(true, r.markOf("force")));
        if (r.bool("purge")) out.put("purge", new YNode.Scalar(true, r.markOf("purge")));
        return out;
    }

    private static String path(MgmtResource r) {
        String path = r.string("path").orElse(r.name());
        Optional<String> dirname = r.string("dirname");
        Optional<String> basename = r.string("basename");
        if (dirname.isEmpty() && basename.isEmpty()) return path;
        int slash = path.endsWith("/") ? path.lastIndexOf('/', path.length() - 2) : path.lastIndexOf('/');
        String dir = dirname.orElse(path.substring(0, slash + 1));
        return dir + basename.orElse(path.substring(slash + 1));
    }

    /**
     * The mode as octal text (a number read from an unquoted {@code 0741} is 741, whose digits are the octal mode), or
     * symbolic text with {@code =} only, which muster's file applies to the mode the file has, as mgmt does. mgmt
     * refuses clauses that add or remove bits ({@code u+x}): so does this.
     */
    private static Optional<String> mode(MgmtResource r) {
        Optional<YNode> node = r.node("mode");
        if (node.isPresent() && node.get() instanceof YNode.Scalar s && s.value() instanceof Number n) return Optional.of(fourDigits(n.toString()));
        Optional<String> written = r.string("mode");
        if (written.isEmpty() || written.get().matches("[0-7]+")) return written.map(FileTranslation::fourDigits);
        if (written.get().contains("+") || written.get().contains("-")) {
            r.problem("mode", "'" + written.get() + "' adds or removes bits, which mgmt's file refuses (it takes '=' only):"
                    + " set each class with '=' (u=rwx,go=rx) or write the mode in octal");
            return Optional.empty();
        }
        if (written.get().contains("X")) {
            r.problem("mode", "'" + written.get() + "': mgmt's file takes the permissions r, w, x, s and t, not X");
            return Optional.empty();
        }
        return written;
    }

    private static String fourDigits(String octal) {
        return "0".repeat(Math.max(0, 4 - octal.length())) + octal;
    }
}
