package io.muster.engine.compile;

/**
 * Thrown by a reader of a declaration when what it reads is wrong, after it added every problem it found to
 * {@link io.muster.engine.manifest.Problems}: the caller reports nothing more, and builds no vertex from the
 * declaration. A checked exception, so that no reader can hand back a half-read value by mistake.
 */
final class Invalid extends Exception {
    Invalid() {
        super(null, null, false, false);
    }

    /** Reads one part of a declaration, or throws when that part is wrong (its problems reported). */
    @FunctionalInterface
    interface Part<T> {
        T read() throws Invalid;
    }

    /**
     * Reads all the parts of one declaration (or all the items of a list), so that the problems of every part
     * are reported, not only the first one's; {@link #throwIfAny} then gives up on the whole.
     */
    static final class Parts {
        private boolean invalid;

        /** The part's value; null when it is wrong, which {@link #throwIfAny} turns into {@link Invalid}. */
        <T> T read(Part<T> part) {
            try {
                return part.read();
            } catch (Invalid e) {
                invalid = true;
                return null;
            }
        }

        /** Records a problem found (and reported) outside {@link #read}. */
        void invalid() {
            invalid = true;
        }

        void throwIfAny() throws Invalid {
            if (invalid) throw new Invalid();
        }
    }
}
