package io.muster.engine.format.ccm.expr;

import java.util.List;

/**
 * A function a caller adds to an expression's environment ({@link CcmEnv#withFunction}), such as the
 * {@code isIPv4(value)} of CCM's {@code @validate}. An {@link IllegalArgumentException} it throws becomes an
 * evaluation error at the call's column.
 */
@FunctionalInterface
public interface CcmFunction {
    Object call(List<Object> arguments);
}
