package io.muster.engine.resource.file;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.Watcher;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import io.muster.engine.util.fs.TrustedPath;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A directory tree copied from a {@code source} directory ({@code recurse: true}): every file, directory and
 * link the source has, with its content and mode (owner and group when the resource sets them; else a new entry
 * is muster's and an existing one keeps its own); with {@code purge}, whatever else is in the tree is removed.
 *
 * <p>Both trees are walked through directory descriptors, never through a path: a link in the target (one a
 * user planted where a directory of the source is) is replaced, never followed, and a file is changed only by a
 * temp file renamed over it ({@link AtomicFiles}), never written or re-owned in place, so a hard link to
 * another file there cannot turn a copy into a change of that file. {@code force} lets a directory replace a
 * file, or a file a directory. {@code mode} is the top directory's; a tree deeper than
 * {@link Directory#MAX_TREE_DEPTH} is an error.
 */
record Tree(Path path, Path source, DesiredMode mode, String owner, String group, boolean force, boolean purge) {

    /** What a walk changes (or would change): one line per entry, "+ new", "~ changed: what", "- purged". */
    private static final class Changes {
        final List<String> lines = new ArrayList<>();
        final boolean apply;
        final int uid;
        final int gid;

        Changes(boolean apply, int uid, int gid) {
            this.apply = apply;
            this.uid = uid;
            this.gid = gid;
        }
    }

    Result converge(Directory parent, Stat now, int uid, int gid, boolean apply) throws IOException {
        String name = ParentDirectory.name(path);
        Changes changes = new Changes(apply, uid, gid);
        try (Directory from = openSource()) {
            Stat top = from.stat(".");
            int topMode = mode == null ? top.mode() : mode.from(now != null && now.directory() ? now.mode() : top.mode(), true);
            if (now != null && !now.directory()) {
                if (!force && !now.link()) throw new IOException(path + " exists and is not a directory; set force: true to replace it");
                changes.lines.add("~ " + path + "/: " + now.typeName() + " -> directory");
                if (apply) ParentDirectory.require(parent, path).delete(name);
                now = null;
            }
            if (now == null) {
                if (changes.lines.isEmpty()) changes.lines.add("+ " + path + "/");
                if (!apply) {
                    copy(from, null, "", 1, changes);
                } else {
                    try (Directory made = makeDirectory(ParentDirectory.require(parent, path), name, topMode, changes)) {
                        copy(from, made, "", 1, changes);
                    }
                }
            } else {
                parent.requireNotForeign(name, now, uid, true);
                fixDirectory(parent, name, now, topMode, "", changes);
                try (Directory into = parent.subdirectory(name, now)) {
                    copy(from, into, "", 1, changes);
                }
            }
        }
        if (changes.lines.isEmpty()) return Result.STABLE;
        return Result.changed(List.of(Change.withDiff("tree", String.join("\n", changes.lines) + "\n")));
    }

    private Directory openSource() throws IOException {
        try {
            return TrustedPath.readDirectory(source);
        } catch (IOException e) {
            throw new IOException("source " + e.getMessage(), e);
        }
    }

    /** Copies what {@code from} holds into {@code into} (null: it does not exist yet, so in noop everything is new). */
    private void copy(Directory from, Directory into, String relative, int depth, Changes changes) throws IOException {
        if (depth > Directory.MAX_TREE_DEPTH) {
            throw new IOException("source " + from.path() + " is more than " + Directory.MAX_TREE_DEPTH + " directories deep, the most muster copies");
        }
        List<String> names = from.list();
        names.sort(null);
        for (String name : names) {
            Stat st = from.stat(name);
            if (st == null) continue; // gone since it was listed
            Stat there = into == null ? null : into.stat(name);
            String rel = relative + name;
            if (st.regular()) {
                file(from, into, name, st, there, rel, changes);
            } else if (st.directory()) {
                directory(from, into, name, st, there, rel, depth, changes);
            } else if (st.link()) {
                link(into, name, from.readLink(name), there, rel, changes);
            } else {
                throw new IOException("source " + from.pathOf(name) + " is a special file; muster copies files, directories and links");
            }
        }
        if (purge && into != null) purgeExtra(into, new HashSet<>(names), relative, changes);
    }

    private void file(Directory from, Directory into, String name, Stat st, Stat there, String rel, Changes changes) throws IOException {
        byte[] content;
        try (OpenFile file = from.open(name, st)) {
            content = file.readAll();
        }
        String what;
        if (there == null) {
            what = null;
        } else if (there.regular()) {
            into.requireNotForeign(name, there, changes.uid, true);
            what = differences(into, name, there, content, st.mode(), changes);
            if (what.isEmpty()) return;
        } else {
            if (there.directory() && !force) {
                throw new IOException(into.pathOf(name) + " is a directory where the source has a file; set force: true to replace it");
            }
            what = there.typeName() + " -> file";
        }
        changes.lines.add(what == null ? "+ " + rel : "~ " + rel + ": " + what);
        if (!changes.apply) return;
        if (there != null && there.directory()) into.delete(name);
        int uid = changes.uid != -1 ? changes.uid : there != null && there.regular() ? there.uid() : -1;
        int gid = changes.gid != -1 ? changes.gid : there != null && there.regular() ? there.gid() : -1;
        AtomicFiles.replace(into, name, content, st.mode(), uid, gid);
    }

    /** What differs in an existing file: "content, mode", or "" when nothing does. */
    private static String differences(Directory into, String name, Stat there, byte[] content, int mode, Changes changes) throws IOException {
        List<String> what = new ArrayList<>(3);
        boolean same = there.size() == content.length;
        if (same) {
            try (OpenFile file = into.open(name, there)) {
                same = Arrays.equals(file.readAll(), content);
            }
        }
        if (!same) what.add("content");
        if (there.mode() != mode) what.add("mode " + FileMode.format(there.mode()) + " -> " + FileMode.format(mode));
        if (changes.uid != -1 && there.uid() != changes.uid || changes.gid != -1 && there.gid() != changes.gid) what.add("owner");
        return String.join(", ", what);
    }

    private void directory(Directory from, Directory into, String name, Stat st, Stat there, String rel, int depth,
                           Changes changes) throws IOException {
        if (there != null && !there.directory()) {
            if (there.regular() && !force) {
                throw new IOException(into.pathOf(name) + " is a file where the source has a directory; set force: true to replace it");
            }
            changes.lines.add("~ " + rel + "/: " + there.typeName() + " -> directory");
            if (changes.apply) into.delete(name); // a link is removed, never followed
            there = null;
        } else if (there == null) {
            changes.lines.add("+ " + rel + "/");
        }
        try (Directory sub = from.subdirectory(name, st)) {
            if (there == null) {
                if (!changes.apply) {
                    copy(sub, null, rel + "/", depth + 1, changes);
                    return;
                }
                try (Directory made = makeDirectory(into, name, st.mode(), changes)) {
                    copy(sub, made, rel + "/", depth + 1, changes);
                }
                return;
            }
            fixDirectory(into, name, there, st.mode(), rel + "/", changes);
            try (Directory existing = into.subdirectory(name, there)) {
                copy(sub, existing, rel + "/", depth + 1, changes);
            }
        }
    }

    private static Directory makeDirectory(Directory in, String name, int mode, Changes changes) throws IOException {
        Stat made;
        try (OpenFile dir = in.makeDirectory(name)) {
            if (changes.uid != -1 || changes.gid != -1) dir.chown(changes.uid, changes.gid);
            dir.chmod(mode);
            made = dir.stat();
        }
        return in.subdirectory(name, made);
    }

    /** Mode and owner of an existing directory, through its descriptor (a directory has no hard links to fear). */
    private static void fixDirectory(Directory in, String name, Stat there, int mode, String rel, Changes changes) throws IOException {
        boolean chown = changes.uid != -1 && there.uid() != changes.uid || changes.gid != -1 && there.gid() != changes.gid;
        boolean chmod = there.mode() != mode;
        if (!chown && !chmod) return;
        changes.lines.add("~ " + (rel.isEmpty() ? in.pathOf(name) + "/" : rel) + ": "
                + (chmod ? "mode " + FileMode.format(there.mode()) + " -> " + FileMode.format(mode) : "") + (chmod && chown ? ", " : "")
                + (chown ? "owner" : ""));
        if (!changes.apply) return;
        try (OpenFile dir = in.open(name, there)) {
            if (chown) dir.chown(changes.uid, changes.gid);
            dir.chmod(mode); // chown clears the set-id bits: the mode comes after it
        }
    }

    private void link(Directory into, String name, String target, Stat there, String rel, Changes changes) throws IOException {
        if (there != null && there.link() && into.readLink(name).equals(target)) return;
        if (there != null && there.directory() && !force) {
            throw new IOException(into.pathOf(name) + " is a directory where the source has a link; set force: true to replace it");
        }
        changes.lines.add((there == null ? "+ " : "~ ") + rel + " -> " + target);
        if (!changes.apply) return;
        if (there != null && there.directory()) into.delete(name);
        into.replaceWithLink(name, target);
    }

    /** Removes what {@code into} holds that the source does not ({@code wanted}); a link is removed, never followed. */
    private static void purgeExtra(Directory into, Set<String> wanted, String relative, Changes changes) throws IOException {
        List<String> names = into.list();
        names.sort(null);
        for (String name : names) {
            if (wanted.contains(name)) continue;
            changes.lines.add("- " + relative + name);
            if (changes.apply) into.delete(name);
        }
    }

    /** Every directory of the tree and of its source: an entry made, changed or removed in any is drift to repair. */
    void watch(Watcher watcher) throws Exception {
        try (TreeWatch watch = new TreeWatch(watcher, List.of(path, source))) {
            watch.run();
        }
    }
}
