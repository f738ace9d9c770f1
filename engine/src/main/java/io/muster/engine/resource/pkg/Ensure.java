package io.muster.engine.resource.pkg;

import io.muster.engine.manifest.YNode;
import io.muster.engine.util.Suggest;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a package resource wants: installed (any version), absent (configuration files may stay), purged
 * (nothing left), the candidate apt would install, or one version.
 *
 * @param version the version for {@link State#VERSION}, as dpkg writes it ({@code 1:2.0-3}); else null
 */
record Ensure(State state, String version) {
    enum State { PRESENT, ABSENT, PURGED, LATEST, VERSION }

    /** The words {@code ensure} takes besides a version; {@code installed} is Puppet's word for present. */
    private static final List<String> WORDS = List.of("present", "installed", "absent", "purged", "latest");
    /** Debian's version syntax: an optional epoch, then an upstream version starting with a digit. */
    private static final Pattern VERSION = Pattern.compile("([0-9]+:)?[0-9][A-Za-z0-9.+~:-]*");

    static final Ensure PRESENT = new Ensure(State.PRESENT, null);

    /** {@code raw}, a value {@link #problem} found nothing wrong with. */
    static Ensure parse(String raw) {
        return switch (raw) {
            case "present", "installed" -> PRESENT;
            case "absent" -> new Ensure(State.ABSENT, null);
            case "purged" -> new Ensure(State.PURGED, null);
            case "latest" -> new Ensure(State.LATEST, null);
            default -> new Ensure(State.VERSION, raw);
        };
    }

    /** What is wrong with {@code raw} as an {@code ensure} value, or null. */
    static String problem(Object raw) {
        if (raw instanceof Number) {
            return "write a version as a quoted string (ensure: \"" + raw + "\"): YAML reads an unquoted 1.10 as the number 1.1";
        }
        if (!(raw instanceof String s)) return "expected present, absent, purged, latest or a version, got " + YNode.describeValue(raw);
        if (WORDS.contains(s) || VERSION.matcher(s).matches()) return null;
        return "expected present, installed, absent, purged, latest or a version (\"1.2-3\", \"1:2.0\"), got '" + s + "'"
                + Suggest.hint(s.toLowerCase(Locale.ROOT), WORDS);
    }

    /** As the manifest says it, for messages. */
    @Override
    public String toString() {
        return state == State.VERSION ? version : state.name().toLowerCase(Locale.ROOT);
    }
}
