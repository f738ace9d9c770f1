package io.muster.coordinator.etcd;

import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdException;

/** What a watch's error means for its listener. */
public final class WatchErrors {
    private WatchErrors() {}

    /**
     * Whether jetcd resumes the watch by itself (etcd was away: it watches again from the last revision it
     * delivered). Any other error ends the watch, a compacted revision among them: the listener lists again.
     */
    public static boolean resumed(Object error) {
        return !(error instanceof CompactedException) && error instanceof EtcdException etcd
                && (etcd.getErrorCode() == ErrorCode.UNAVAILABLE || etcd.getErrorCode() == ErrorCode.INTERNAL);
    }
}
