package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;
import java.util.Map;

/**
 * Renders the CCM templates ({@code {{ expr }}}, {@code ${ expr }}) of a value CCM resolves when it parses the
 * manifest: in a string, and in the strings of a list or map. A value with no template is returned as it is.
 */
interface Render {
    /** @throws IllegalArgumentException naming the construct, when a template cannot be rendered */
    Object now(Object plain, Mark mark);

    /**
     * The value of one CCM expression, with {@code data} as its data (a scaffold's own, or the manifest's); its
     * variables are also readable in lower case ({@code data}, {@code facts}, {@code environ}), as in a scaffold's
     * templates. @throws IllegalArgumentException naming the construct, when it cannot be evaluated
     */
    Object evaluate(String expression, Map<String, Object> data);

    /** The value of one CCM expression with the manifest's data: a {@code control} condition. */
    Object evaluate(String expression);

    /**
     * {@code text} rendered as a Jet template with tags between {@code left} and {@code right}, with {@code data} as its
     * data. @throws IllegalArgumentException naming the construct, when it cannot be rendered
     */
    String jet(String text, String left, String right, Map<String, Object> data);
}
