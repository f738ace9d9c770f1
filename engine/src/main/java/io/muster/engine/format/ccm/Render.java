package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;

/**
 * Renders the CCM templates ({@code {{ expr }}}, {@code ${ expr }}) of a value CCM resolves when it parses the
 * manifest: in a string, and in the strings of a list or map. A value with no template is returned as it is.
 */
interface Render {
    /** @throws IllegalArgumentException naming the construct, when a template cannot be rendered */
    Object now(Object plain, Mark mark);
}
