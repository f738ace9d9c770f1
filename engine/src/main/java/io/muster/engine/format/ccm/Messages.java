package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Problems;
import io.muster.engine.manifest.YNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * {@code pre_message} and {@code post_message} as silent {@code noop} resources carrying the text
 * ({@link CcmNames}), which the CLI prints as {@code ccm apply} does: the first before every resource, the last
 * after all of them, requiring each, so it is shown only when none failed (as CCM shows it only when the session
 * counted no error). Both are rendered now, as CCM renders them when it reads the manifest.
 */
final class Messages {
    private final Path file;
    private final Render render;
    private final Problems problems;

    Messages(Path file, Render render, Problems problems) {
        this.file = file;
        this.render = render;
        this.problems = problems;
    }

    Optional<Translated> pre(YNode.Entry entry) {
        return message(entry, "pre_message");
    }

    Optional<Translated> post(YNode.Entry entry, List<String> after) {
        Optional<Translated> message = message(entry, "post_message");
        message.ifPresent(m -> {
            if (!after.isEmpty()) m.put("require", after, entry.value().mark());
        });
        return message;
    }

    private Optional<Translated> message(YNode.Entry entry, String which) {
        if (entry == null) return Optional.empty();
        if (!(entry.value().plain() instanceof String text)) {
            problems.add(entry.value().mark(), "ccm." + which + ": expected a string, got " + entry.value().describe());
            return Optional.empty();
        }
        Object rendered;
        try {
            rendered = render.now(text, entry.value().mark());
        } catch (IllegalArgumentException e) {
            problems.add(entry.value().mark(), "invalid " + which + " template: " + e.getMessage());
            return Optional.empty();
        }
        if (String.valueOf(rendered).isEmpty()) return Optional.empty();
        Translated message = new Translated("noop", CcmNames.message(which, file), entry.keyMark(), new LinkedHashMap<>());
        return Optional.of(message.put("comment", String.valueOf(rendered), entry.value().mark()));
    }
}
