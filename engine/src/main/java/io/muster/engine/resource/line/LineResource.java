package io.muster.engine.resource.line;

import io.muster.engine.resource.Change;
import io.muster.engine.resource.Context;
import io.muster.engine.resource.InvalidResourceException;
import io.muster.engine.resource.PartOfPath;
import io.muster.engine.resource.Result;
import io.muster.engine.resource.file.ParentDirectory;
import io.muster.engine.util.AtomicFiles;
import io.muster.engine.util.TextDiff;
import io.muster.engine.util.fs.Directory;
import io.muster.engine.util.fs.OpenFile;
import io.muster.engine.util.fs.Stat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A line of a text file (UTF-8), present or absent. The file is rewritten as {@code file} writes one (a temp file
 * renamed over it, see {@link AtomicFiles}), keeping its mode and owner; a missing file is made (0644) when the
 * line is to be present. It shares its path with a {@code file} resource that manages the file, and comes after it.
 */
record LineResource(Path path, String line, boolean present, String match, String after, boolean multiple,
                    boolean sensitive) implements PartOfPath {

    private static final int NEW_FILE_MODE = 0644;

    @Override
    public void validate() throws InvalidResourceException {
        if (line == null && (present || match == null)) {
            throw new InvalidResourceException("line", present ? "ensure: present requires a line" : "ensure: absent requires a line or a match");
        }
        if (line != null && line.contains("\n")) throw new InvalidResourceException("line", "a line may not contain a newline");
        if (after != null && !present) throw new InvalidResourceException("after", "after requires ensure: present");
        compile("match", match);
        compile("after", after);
        if (path.getParent() == null) throw new InvalidResourceException("path", "/ is a directory, not a file of lines");
    }

    private static Pattern compile(String property, String regex) throws InvalidResourceException {
        if (regex == null) return null;
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new InvalidResourceException(property, "not a regular expression: " + e.getDescription() + " near position "
                    + (e.getIndex() + 1) + " of '" + regex + "'");
        }
    }

    @Override
    public Result checkApply(Context context, boolean apply) throws IOException, InvalidResourceException {
        String name = ParentDirectory.name(path);
        try (Directory dir = ParentDirectory.open(path, -1)) {
            Stat now = dir == null ? null : dir.stat(name);
            if (now != null && !now.regular()) throw new IOException(path + " is a " + now.typeName() + ", not a file of lines");
            if (now == null && !present) return Result.STABLE;
            byte[] current = new byte[0];
            if (now != null) {
                dir.requireNotForeign(name, now, -1, false);
                try (OpenFile file = dir.open(name, now)) {
                    current = file.readAll();
                }
            }
            LineEdit edit = new LineEdit(text(current), path.toString());
            if (present) edit.present(line, compile("match", match), compile("after", after), multiple);
            else edit.absent(line, compile("match", match), multiple);
            byte[] next = edit.text().getBytes(StandardCharsets.UTF_8);
            if (now != null && Arrays.equals(current, next)) return Result.STABLE;

            List<Change> changes = new ArrayList<>();
            if (now == null) changes.add(Change.of("ensure", "absent", "present"));
            changes.add(Change.withDiff("content", !context.diffs() ? null
                    : sensitive ? "content differs (sensitive: diff redacted)\n" : TextDiff.unified(path.toString(), now == null ? null : current, next)));
            if (apply) {
                AtomicFiles.replace(ParentDirectory.require(dir, path), name, next, now == null ? NEW_FILE_MODE : now.mode(),
                        now == null ? -1 : now.uid(), now == null ? -1 : now.gid());
            }
            return Result.changed(changes);
        }
    }

    private String text(byte[] bytes) throws IOException {
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IOException(path + " is not UTF-8 text; a line resource edits text files only", e);
        }
    }
}
