package io.muster.agent.etcd;

/**
 * etcd did not answer in time, or refused: the message is the one line a user sees (the endpoints, and why),
 * never a stack trace.
 */
public final class EtcdUnreachableException extends Exception {
    public EtcdUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}
