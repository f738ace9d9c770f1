package io.muster.engine.manifest;

import java.util.List;
import java.util.stream.Collectors;

/** A manifest that cannot be compiled; carries every problem found, in file order. */
public final class ManifestException extends Exception {
    private final List<Problem> problems;

    public ManifestException(List<Problem> problems) {
        this(problems, null);
    }

    /** {@code cause}: the exception behind an internal error among the problems, for {@code --debug}. */
    public ManifestException(List<Problem> problems, Throwable cause) {
        super(problems.stream().sorted().map(Problem::toString).collect(Collectors.joining("\n")), cause);
        this.problems = problems.stream().sorted().toList();
    }

    public ManifestException(Mark mark, String message) {
        this(List.of(new Problem(mark, message)));
    }

    public ManifestException(Mark mark, String message, Throwable cause) {
        this(List.of(new Problem(mark, message)), cause);
    }

    public List<Problem> problems() {
        return problems;
    }
}
