package io.muster.engine.manifest;

import java.util.ArrayList;
import java.util.List;

/** Collects problems so that one run of {@code validate} reports all of them, not just the first. */
public final class Problems {
    private final List<Problem> found = new ArrayList<>();
    private Throwable cause;

    public void add(Mark mark, String message) {
        found.add(new Problem(mark, message));
    }

    /** A problem that an exception caused (an internal error): the first such exception is kept for {@code --debug}. */
    public void add(Mark mark, String message, Throwable exception) {
        add(mark, message);
        if (cause == null) cause = exception;
    }

    /** Another manifest's problems (a child manifest that could not be read), kept with these. */
    public void addAll(List<Problem> problems) {
        found.addAll(problems);
    }

    public boolean isEmpty() {
        return found.isEmpty();
    }

    public void throwIfAny() throws ManifestException {
        if (!found.isEmpty()) throw new ManifestException(List.copyOf(found), cause);
    }
}
