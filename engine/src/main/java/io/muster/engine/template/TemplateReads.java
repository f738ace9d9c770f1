package io.muster.engine.template;

import io.muster.engine.format.ccm.expr.CcmReads;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What templates read from outside the manifest, found from their text without evaluating them: the facts
 * (by top-level name), the environment variables, and the files {@code file('…')} reads. A graph carries only
 * these with it. A read whose name is computed ({@code facts[name]}, {@code lookup(path)}) cannot be named
 * this way: it reads all facts, and {@link #computedEnv} says it may read any environment variable.
 */
public final class TemplateReads {
    /** A call of {@code lookup} or {@code file}; the literal first argument, when it is one, alone before {@code ,} or {@code )}. */
    private static final Pattern CALL = Pattern.compile(
            "\\b(lookup|file)\\s*\\(\\s*(?:'([^'\\\\]*)'|\"([^\"\\\\]*)\")?(\\s*[,)])?");

    private final Set<String> facts = new TreeSet<>();
    private final Set<String> env = new TreeSet<>();
    private final Set<String> files = new TreeSet<>();
    private boolean allFacts;
    private boolean computedEnv;
    private final TemplateDialect dialect;

    /** What templates of muster's own read. */
    public TemplateReads() {
        this(TemplateDialect.NATIVE);
    }

    /** What templates written in {@code dialect} read. */
    public TemplateReads(TemplateDialect dialect) {
        this.dialect = dialect;
    }

    /** Adds what {@code value} (a string, or lists and maps of them, as written) reads in its templates. */
    public void addValue(Object value) {
        switch (value) {
            case String s when dialect == TemplateDialect.CCM && CcmDialect.containsExpression(s) -> CcmDialect.addReads(s, this);
            case String s when dialect == TemplateDialect.NATIVE && Template.containsExpression(s) -> Template.parse(s).expressions().forEach(this::addExpression);
            case List<?> items -> items.forEach(this::addValue);
            case Map<?, ?> map -> map.values().forEach(this::addValue);
            case null, default -> { }
        }
    }

    /** Adds what a {@code control} condition reads: a template, or an expression on its own. */
    public void addCondition(String source) {
        if (Template.containsExpression(source)) addValue(source);
        else addExpression(source);
    }

    private void addExpression(String source) {
        PlainPath plain = PlainPath.of(source);
        if (plain != null) { // what JEXL would list, without starting it
            addPath(plain.path());
            return;
        }
        Set<List<String>> variables = Expressions.variables(source);
        if (variables == null) { // it parsed as an expression, so this does not happen; if it did, assume the worst
            allFacts = true;
            computedEnv = true;
            return;
        }
        for (List<String> path : variables) addPath(path);
        Matcher call = CALL.matcher(source);
        while (call.find()) {
            String literal = call.group(2) != null ? call.group(2) : call.group(3);
            boolean alone = literal != null && call.group(4) != null;
            if (call.group(1).equals("file")) {
                if (alone) files.add(literal);
            } else if (alone) {
                if (!literal.contains("#")) addPath(List.of(literal.split("\\.")));
            } else {
                computedLookup(literal);
            }
        }
    }

    /** {@code lookup} of a path computed from {@code prefix} (null: computed whole): what it may read depends on how it starts. */
    private void computedLookup(String prefix) {
        if (prefix != null && (prefix.contains("#") || prefix.startsWith("data."))) return; // a resource's value, or data
        if (prefix != null && prefix.startsWith("facts.")) {
            allFacts = true;
        } else if (prefix != null && prefix.startsWith("env.")) {
            computedEnv = true;
        } else {
            allFacts = true;
            computedEnv = true;
        }
    }

    private void addPath(List<String> path) {
        switch (path.get(0)) {
            case "facts" -> {
                if (path.size() > 1) facts.add(path.get(1));
                else allFacts = true;
            }
            case "env" -> {
                if (path.size() > 1) env.add(path.get(1));
                else computedEnv = true;
            }
            default -> { }
        }
    }

    /** Adds what CCM templates read: their facts and environment variables are this scope's facts and env. */
    void addCcm(CcmReads found) {
        facts.addAll(found.facts());
        allFacts |= found.allFacts();
        env.addAll(found.environ());
        computedEnv |= found.computedEnviron();
        files.addAll(found.files());
    }

    /** The facts read by name (see {@link #allFacts}). */
    public Set<String> facts() {
        return facts;
    }

    /** Whether some read of the facts is computed, or takes them whole. */
    public boolean allFacts() {
        return allFacts;
    }

    public Set<String> env() {
        return env;
    }

    /** Whether some read of the environment is computed, or takes it whole: no list of names can say what it needs. */
    public boolean computedEnv() {
        return computedEnv;
    }

    /** What {@code file('…')} reads, as written (relative to the manifest's directory, or absolute). */
    public Set<String> files() {
        return files;
    }
}
