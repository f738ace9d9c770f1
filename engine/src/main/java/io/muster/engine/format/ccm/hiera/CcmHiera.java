package io.muster.engine.format.ccm.hiera;

import io.muster.engine.format.ccm.expr.CcmEnv;
import io.muster.engine.format.ccm.expr.CcmEvaluationException;
import io.muster.engine.format.ccm.expr.CcmSyntaxException;
import io.muster.engine.format.ccm.expr.CcmTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CCM's hierarchical data: a document's {@code data} (the base), {@code hierarchy} ({@code order}, {@code merge}) and
 * {@code overrides}, resolved against facts as CCM's resolver does. Each order entry is a template rendered with the
 * facts; an entry whose expressions all give nothing (nil or {@code ""}) is skipped, as is one naming the data key
 * itself; the rest name override levels. {@code merge: first} (the default) merges the first level found into the
 * base shallowly and stops; {@code deep} merges every level found, in order, the later winning and lists
 * concatenating. No {@code hierarchy} means {@code order: [default]}. The templates in the base's and the levels'
 * values are rendered too, typed; only {@code lookup()} may be called, and a missing key is {@code ""}.
 */
public final class CcmHiera {
    private static final String HIERARCHY = "hierarchy";
    private static final String OVERRIDES = "overrides";

    private CcmHiera() {}

    /** The data of {@code document} (its base under {@code data}) for a host with {@code facts}. */
    public static Map<String, Object> resolve(Map<String, ?> document, Map<String, ?> facts) throws CcmHieraException {
        return resolve(document, facts, "data");
    }

    /** As {@link #resolve(Map, Map)}, the base being under {@code dataKey}. */
    public static Map<String, Object> resolve(Map<String, ?> document, Map<String, ?> facts, String dataKey) throws CcmHieraException {
        Map<String, Object> root = Merging.keyed(Numbers.normalized(document));
        // CCM's hiera environment has the facts only: Data and Environ are empty, not absent
        CcmEnv env = CcmEnv.of(Map.of(), facts, Map.of()).restricted();
        Hierarchy hierarchy = root.containsKey(HIERARCHY) ? Hierarchy.of(root.get(HIERARCHY)) : Hierarchy.DEFAULT;
        Map<String, Object> overrides = map(root.get(OVERRIDES), List.of(OVERRIDES), "a map of override levels");
        boolean hasData = root.get(dataKey) instanceof Map<?, ?>;
        Map<String, Object> base = hasData ? Merging.keyed((Map<?, ?>) render(root.get(dataKey), env, new ArrayList<>(List.of(dataKey)))) : Map.of();
        for (int i = 0; i < hierarchy.order().size(); i++) {
            List<String> where = List.of(HIERARCHY, "order", Integer.toString(i));
            CcmTemplate.Matched level = level(hierarchy.order().get(i), env, where);
            if (!level.matched() || (level.text().equals(dataKey) && hasData)) continue;
            if (!(overrides.get(level.text()) instanceof Map<?, ?> candidate)) continue;
            Map<String, Object> rendered = Merging.keyed((Map<?, ?>) render(candidate, env, new ArrayList<>(List.of(OVERRIDES, level.text()))));
            switch (hierarchy.merge()) {
                case "deep" -> base = Merging.deep(base, rendered);
                case "first" -> {
                    return Merging.shallow(base, rendered);
                }
                default -> throw new CcmHieraException(List.of(HIERARCHY, "merge"), "unsupported merge mode '" + hierarchy.merge()
                        + "'; expected first or deep");
            }
        }
        return base;
    }

    private static CcmTemplate.Matched level(String entry, CcmEnv env, List<String> where) throws CcmHieraException {
        try {
            return CcmTemplate.parse(entry).renderMatched(env);
        } catch (CcmSyntaxException | CcmEvaluationException e) {
            throw new CcmHieraException(where, e.getMessage());
        }
    }

    /** {@code value} with every string rendered as a typed template, maps and lists throughout. */
    private static Object render(Object value, CcmEnv env, List<String> where) throws CcmHieraException {
        switch (value) {
            case String s when CcmTemplate.containsExpression(s) -> {
                try {
                    return CcmTemplate.parse(s).render(env);
                } catch (CcmSyntaxException | CcmEvaluationException e) {
                    throw new CcmHieraException(where, e.getMessage());
                }
            }
            case Map<?, ?> map -> {
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    where.add(String.valueOf(e.getKey()));
                    out.put(String.valueOf(e.getKey()), render(e.getValue(), env, where));
                    where.removeLast();
                }
                return out;
            }
            case List<?> list -> {
                List<Object> out = new ArrayList<>();
                for (int i = 0; i < list.size(); i++) {
                    where.add(Integer.toString(i));
                    out.add(render(list.get(i), env, where));
                    where.removeLast();
                }
                return out;
            }
            case null, default -> {
                return value;
            }
        }
    }

    static Map<String, Object> map(Object value, List<String> where, String expected) throws CcmHieraException {
        if (value == null) return Map.of();
        if (value instanceof Map<?, ?> map) return Merging.keyed(map);
        throw new CcmHieraException(where, "expected " + expected);
    }
}
