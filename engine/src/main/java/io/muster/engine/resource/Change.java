package io.muster.engine.resource;

/**
 * One attribute that changed, or would change in noop: {@code mode 0600 -> 0644}. {@code diff} is a
 * unified diff for content changes (null otherwise).
 */
public record Change(String attribute, String from, String to, String diff) {

    public static Change of(String attribute, Object from, Object to) {
        return new Change(attribute, from == null ? null : from.toString(), to == null ? null : to.toString(), null);
    }

    public static Change withDiff(String attribute, String diff) {
        return new Change(attribute, null, null, diff);
    }

    /** The line a report shows for it, or null when a diff (or nothing) says more. */
    public String describe() {
        if (diff != null || (from == null && to == null)) return null;
        return attribute + " " + (from == null ? "absent" : from) + " -> " + (to == null ? "absent" : to);
    }
}
