package io.muster.engine.format.ccm;

import io.muster.engine.format.ForeignManifest;
import io.muster.engine.format.ccm.expr.CcmEnv;
import io.muster.engine.format.ccm.expr.CcmEvaluationException;
import io.muster.engine.format.ccm.expr.CcmExpression;
import io.muster.engine.format.ccm.expr.CcmFiles;
import io.muster.engine.format.ccm.expr.CcmSyntaxException;
import io.muster.engine.format.ccm.expr.CcmTemplate;
import io.muster.engine.format.ccm.expr.JetTemplate;
import io.muster.engine.manifest.Mark;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CCM's templates rendered when the manifest is read, as CCM renders them: with the manifest's data
 * ({@code Data}), the host's facts ({@code Facts}) and environment ({@code Environ}), files read from the
 * manifest's directory.
 */
final class CcmTemplates implements Render {
    private final ForeignManifest source;
    private final CcmEnv env;

    CcmTemplates(Map<String, Object> data, ForeignManifest source) {
        this.source = source;
        this.env = environment(data);
    }

    private CcmEnv environment(Map<String, Object> data) {
        return CcmEnv.of(data, source.facts(), source.env()).withFiles(CcmFiles.under(source.file().getParent(), source.reads()));
    }

    @Override
    public Object now(Object plain, Mark mark) {
        if (plain instanceof String text) return CcmTemplate.containsExpression(text) ? render(text) : text;
        if (plain instanceof List<?> list) {
            List<Object> out = new ArrayList<>();
            for (Object item : list) out.add(now(item, mark));
            return out;
        }
        if (plain instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), now(v, mark)));
            return out;
        }
        return plain;
    }

    private Object render(String text) {
        try {
            return CcmTemplate.parse(text).render(env);
        } catch (CcmSyntaxException e) {
            throw new IllegalArgumentException(e.error().message(), e);
        } catch (CcmEvaluationException e) {
            throw new IllegalArgumentException(e.error().message(), e);
        }
    }

    @Override
    public Object evaluate(String expression) {
        return evaluated(expression, env);
    }

    @Override
    public Object evaluate(String expression, Map<String, Object> data) {
        return evaluated(expression, environment(data).withVariable("data", data).withVariable("facts", source.facts())
                .withVariable("environ", source.env()));
    }

    @Override
    public String jet(String text, String left, String right, Map<String, Object> data) {
        try {
            return JetTemplate.parse(text, left, right).render(environment(data));
        } catch (CcmSyntaxException e) {
            throw new IllegalArgumentException(e.error().message(), e);
        } catch (CcmEvaluationException e) {
            throw new IllegalArgumentException(e.error().message(), e);
        }
    }

    private static Object evaluated(String expression, CcmEnv env) {
        try {
            return CcmExpression.parse(expression).evaluate(env);
        } catch (CcmSyntaxException e) {
            throw new IllegalArgumentException(e.error().message(), e);
        } catch (CcmEvaluationException e) {
            throw new IllegalArgumentException(e.error().message(), e);
        }
    }
}
