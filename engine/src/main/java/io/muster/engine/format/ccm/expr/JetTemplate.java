package io.muster.engine.format.ccm.expr;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Jet template (CloudyKit/jet, as CCM's {@code jet()}, {@code resources_jet_file} and jet scaffolds use it): text
 * with tags between two delimiters ({@code [[ ]]} by default). A tag is an expression whose value is written
 * ({@code [[ Data.port ]]}, {@code [[ .Data.port ]]}, {@code [[ . ]]}), {@code if}/{@code else if}/{@code else}/
 * {@code end}, {@code range} (over a list or map: {@code [[ range Data.list ]]} with the element as {@code .},
 * {@code range i := …}, {@code range k, v := …}, and an {@code else} for an empty one), or an assignment
 * ({@code [[ name := expr ]]}, {@code [[ name = expr ]]}). {@code [[-} and {@code -]]} trim the white space beside
 * the tag; {@code {* … *}} is a comment. Expressions are CCM's (expr-lang's) with Jet's names: {@code data},
 * {@code facts}, {@code environ} and their capitalised forms, {@code .} the current element (at the top the
 * environment: {@code .Data}), {@code isset(x)}, {@code len(x)}. Other Jet statements (blocks, yield, include,
 * import, extends) are refused by name. Parsed once, immutable.
 */
public final class JetTemplate {
    /** The variable an expression's {@code .} reads: a name no manifest writes. */
    static final String DOT = "jet__dot";

    private final String source;
    private final List<JetNode> body;

    private JetTemplate(String source, List<JetNode> body) {
        this.source = source;
        this.body = body;
    }

    /** Parsed with {@code left} and {@code right} as the tag delimiters. */
    public static JetTemplate parse(String text, String left, String right) throws CcmSyntaxException {
        return new JetTemplate(text, new JetParser(text, left, right).parse());
    }

    /** The text, each tag done in order with {@code env}'s values. */
    public String render(CcmEnv env) {
        Map<String, Object> context = new LinkedHashMap<>();
        context.put("Data", env.data());
        context.put("Facts", env.facts());
        context.put("Environ", env.environ());
        CcmEnv jet = env.withVariable("data", env.data()).withVariable("facts", env.facts()).withVariable("environ", env.environ())
                .withVariable(DOT, context).withFunction("isset", arguments -> arguments.stream().allMatch(a -> a != null));
        StringBuilder out = new StringBuilder();
        write(body, jet, out);
        return out.toString();
    }

    private CcmEnv write(List<JetNode> nodes, CcmEnv env, StringBuilder out) {
        CcmEnv scope = env;
        for (JetNode node : nodes) {
            switch (node) {
                case JetNode.Text text -> out.append(text.text());
                case JetNode.Print print -> out.append(GoText.sprint(value(print.expression(), scope)));
                case JetNode.Assign assign -> scope = scope.withVariable(assign.name(), value(assign.expression(), scope));
                case JetNode.If branches -> ifThen(branches, scope, out);
                case JetNode.Range range -> range(range, scope, out);
            }
        }
        return scope;
    }

    private void ifThen(JetNode.If node, CcmEnv env, StringBuilder out) {
        for (JetNode.Branch branch : node.branches()) {
            if (branch.condition() == null || truthy(value(branch.condition(), env))) {
                write(branch.body(), env, out);
                return;
            }
        }
    }

    private void range(JetNode.Range node, CcmEnv env, StringBuilder out) {
        Object over = value(node.expression(), env);
        List<Object[]> items = new ArrayList<>(); // {key or index, value}
        switch (over) {
            case null -> { }
            case List<?> list -> {
                for (int i = 0; i < list.size(); i++) items.add(new Object[] {(long) i, list.get(i)});
            }
            case Map<?, ?> map -> map.forEach((k, v) -> items.add(new Object[] {k, v}));
            default -> throw new CcmEvaluationException(1, "range over " + Values.type(over) + ": expected a list or a map")
                    .within(source, node.expression().offset());
        }
        if (items.isEmpty()) {
            write(node.otherwise(), env, out);
            return;
        }
        for (Object[] item : items) {
            CcmEnv scope = env.withVariable(DOT, item[1]);
            if (node.key() != null) scope = scope.withVariable(node.key(), item[0]);
            if (node.value() != null) scope = scope.withVariable(node.value(), item[1]);
            write(node.body(), scope, out);
        }
    }

    private Object value(JetNode.Expression expression, CcmEnv env) {
        try {
            return expression.parsed().evaluateUnplaced(env);
        } catch (CcmEvaluationException e) {
            throw e.within(source, expression.offset());
        }
    }

    /** Jet's truth, as Go templates have it: false, 0, "", nil and empty lists and maps are false. */
    static boolean truthy(Object value) {
        return switch (Values.normalize(value)) {
            case null -> false;
            case Boolean b -> b;
            case Long n -> n != 0;
            case Double d -> d != 0;
            case String s -> !s.isEmpty();
            case List<?> list -> !list.isEmpty();
            case Map<?, ?> map -> !map.isEmpty();
            default -> true;
        };
    }
}
