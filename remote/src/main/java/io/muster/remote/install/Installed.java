package io.muster.remote.install;

/**
 * Muster as installed in a host's cache.
 *
 * @param directory the cache directory on the remote (absolute), holding {@code muster.jar} and {@code runtime/}
 * @param uploaded whether this run copied it (false: it was there already)
 * @param bytesUploaded how much this run copied
 */
public record Installed(String directory, boolean uploaded, long bytesUploaded) {
    /** The java launcher of the uploaded runtime. */
    public String java() {
        return directory + "/" + Payload.RUNTIME + "/bin/java";
    }

    public String jar() {
        return directory + "/" + Payload.JAR;
    }
}
