package io.muster.coordinator.deploy;

/** A deploy or rollback that cannot be done as asked (a bundle that cannot be shipped, no such deploy): one line saying why. */
public final class DeployException extends Exception {
    public DeployException(String message) {
        super(message);
    }
}
