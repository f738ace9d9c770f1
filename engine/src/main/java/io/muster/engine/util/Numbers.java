package io.muster.engine.util;

/** Number literals as users write them. */
public final class Numbers {
    private Numbers() {}

    /**
     * Whether {@code text}, which parsed as {@code parsed}, underflowed: {@code 1e-400} is not zero but a
     * double holds it as 0, which for a duration would mean "none".
     */
    public static boolean underflows(String text, double parsed) {
        if (parsed != 0) return false;
        String mantissa = text.strip().split("[eE]", 2)[0];
        return mantissa.chars().anyMatch(c -> c >= '1' && c <= '9');
    }
}
