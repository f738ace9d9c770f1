package io.muster.engine.format.ccm.expr;

/**
 * A CCM template or expression that does not parse, or uses a construct muster does not support. Its message is
 * its {@link CcmError#message()}, the place first, so that a caller can put the file and line of the text before it.
 */
public final class CcmSyntaxException extends Exception {
    private final CcmError error;

    CcmSyntaxException(int column, String reason) {
        this(new CcmError(1, column, reason));
    }

    private CcmSyntaxException(CcmError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    public CcmError error() {
        return error;
    }

    CcmSyntaxException within(String text, int offset) {
        return new CcmSyntaxException(error.within(text, offset));
    }
}
