package io.muster.coordinator.rollout;

import java.util.Locale;

/**
 * A number of hosts given as {@code N} or as {@code P%} of some hosts ({@code --batch}, {@code --max-failures}).
 *
 * @param count hosts, or a percentage when {@code percent}
 */
public record Share(int count, boolean percent) {
    public Share {
        if (count < 0 || percent && count > 100) throw new IllegalArgumentException("expected N or P% (0 to 100), got " + this);
    }

    /** @throws IllegalArgumentException saying what was expected */
    public static Share parse(String text) {
        String t = text.strip();
        boolean percent = t.endsWith("%");
        try {
            return new Share(Integer.parseInt(percent ? t.substring(0, t.length() - 1) : t), percent);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a number of hosts N or a percentage P%, got '" + text + "'");
        }
    }

    /** Of {@code total} hosts, rounded up: a wave's size. */
    public int roundedUp(int total) {
        return percent ? (int) Math.ceil(total * (count / 100.0)) : count;
    }

    /** Of {@code total} hosts, rounded down: the failures a wave may have. */
    public int roundedDown(int total) {
        return percent ? (int) Math.floor(total * (count / 100.0)) : count;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, percent ? "%d%%" : "%d", count);
    }
}
