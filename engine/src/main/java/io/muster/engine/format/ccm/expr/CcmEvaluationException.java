package io.muster.engine.format.ccm.expr;

/**
 * A CCM expression that parsed but cannot be evaluated with the values at hand: a missing key in {@code lookup()},
 * an operator applied to values of the wrong types, an unknown name. Its message is its {@link CcmError#message()}.
 */
public final class CcmEvaluationException extends RuntimeException {
    private final CcmError error;

    CcmEvaluationException(int column, String reason) {
        this(new CcmError(1, column, reason));
    }

    private CcmEvaluationException(CcmError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    public CcmError error() {
        return error;
    }

    CcmEvaluationException within(String text, int offset) {
        return new CcmEvaluationException(error.within(text, offset));
    }
}
