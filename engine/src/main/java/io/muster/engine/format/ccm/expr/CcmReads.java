package io.muster.engine.format.ccm.expr;

import java.util.Set;
import java.util.TreeSet;

/**
 * What templates read from outside their manifest, found from their syntax without evaluating them: the facts by
 * top-level name ({@code Facts.os}, {@code lookup('facts.os.family')}), the environment variables
 * ({@code Environ.HOME}, {@code lookup('environ.HOME')}), and the files {@code file('…')}, {@code readFile('…')}
 * and {@code template('….templ')} name. A read whose name is computed cannot be named: {@link #allFacts()} or
 * {@link #computedEnviron()} says so. What a {@code .templ} file reads is not known before it is read: it counts
 * as reading all facts, and no environment variable.
 */
public final class CcmReads {
    private final Set<String> facts = new TreeSet<>();
    private final Set<String> environ = new TreeSet<>();
    private final Set<String> files = new TreeSet<>();
    private boolean allFacts;
    private boolean computedEnviron;

    /** The facts read by name (see {@link #allFacts}). */
    public Set<String> facts() {
        return facts;
    }

    public boolean allFacts() {
        return allFacts;
    }

    public Set<String> environ() {
        return environ;
    }

    public boolean computedEnviron() {
        return computedEnviron;
    }

    /** The files named by literal paths, as written (relative to the manifest's directory, or absolute). */
    public Set<String> files() {
        return files;
    }

    void fact(String name) {
        if (name.indexOf('*') >= 0 || name.indexOf('?') >= 0) allFacts = true;
        else facts.add(name);
    }

    void anyFact() {
        allFacts = true;
    }

    void variable(String name) {
        if (name.indexOf('*') >= 0 || name.indexOf('?') >= 0) computedEnviron = true;
        else environ.add(name);
    }

    void anyVariable() {
        computedEnviron = true;
    }

    void file(String path) {
        files.add(path);
    }
}
