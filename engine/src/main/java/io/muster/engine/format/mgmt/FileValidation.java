package io.muster.engine.format.mgmt;

import java.util.Optional;

/**
 * What mgmt's file refuses at validation, refused here too, each at the key that breaks it: combinations that mgmt
 * would not run, which muster's file might otherwise run with a meaning of its own (a directory's content ignored,
 * a source directory copied without {@code recurse}).
 */
final class FileValidation {
    private FileValidation() {}

    static void check(MgmtResource r, String path) {
        r.string("dirname").filter(d -> !d.endsWith("/")).ifPresent(d -> r.problem("dirname", "must end with a slash, got '" + d + "'"));
        r.string("basename").filter(b -> b.startsWith("/")).ifPresent(b -> r.problem("basename", "must not start with a slash, got '" + b + "'"));
        boolean directory = path.endsWith("/");
        boolean content = r.node("content").isPresent();
        Optional<String> source = r.string("source");
        boolean symlink = r.bool("symlink");
        boolean recurse = r.bool("recurse");
        if (r.string("state").equals(Optional.of("absent")) && (content || source.isPresent())) {
            r.problem(content ? "content" : "source", "does not go with state: absent");
        }
        if (directory && content) r.problem("content", "a directory (a path ending in /) has no content");
        if (directory && symlink) r.problem("symlink", "a directory (a path ending in /) cannot be a symlink");
        if (symlink && content) r.problem("content", "a symlink has no content");
        if (symlink && (recurse || r.bool("purge"))) r.problem(recurse ? "recurse" : "purge", "does not go with symlink");
        if (source.isEmpty() || symlink) return;
        boolean sourceDirectory = source.get().endsWith("/");
        if (directory && sourceDirectory && !recurse) r.problem("source", "a source directory is copied only with recurse: true");
        if (!directory && !sourceDirectory && recurse) r.problem("recurse", "a single file is copied without recurse");
    }
}
