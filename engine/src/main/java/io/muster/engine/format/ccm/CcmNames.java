package io.muster.engine.format.ccm;

/**
 * The names of what the front end adds to a CCM manifest's resources, for the CLI to show them as {@code ccm apply}
 * does. {@code pre_message} and {@code post_message} are silent {@code noop} resources carrying the text as their
 * {@code comment}: {@code ccm apply} prints them on its output, not in its log. A stop is a failing {@code msg}: CCM's
 * manager answers a {@code require} of a resource not run yet with an error that ends the whole apply, and
 * {@code ccm apply} exits 1 then, while a resource that merely failed leaves it exiting 0.
 */
public final class CcmNames {
    private static final String STOP = "run stopped at ";
    private static final String PRE = "pre_message";
    private static final String POST = "post_message";

    private CcmNames() {}

    /** The name of the {@code msg} that stops the run at the resource {@code id}. */
    static String stop(String id) {
        return STOP + id;
    }

    /** The name of the {@code noop} carrying the pre or post message ({@code which}) of a manifest. */
    static String message(String which, Object manifest) {
        return which + " of " + manifest;
    }

    /** Whether the resource {@code id} (as reported, {@code kind#name}) is where a CCM run stopped. */
    public static boolean isStop(String id) {
        return id.startsWith("msg#" + STOP);
    }

    /** Whether the resource {@code id} carries a manifest's {@code pre_message}. */
    public static boolean isPreMessage(String id) {
        return id.startsWith("noop#" + PRE + " of ");
    }

    /** Whether the resource {@code id} carries a manifest's {@code post_message}. */
    public static boolean isPostMessage(String id) {
        return id.startsWith("noop#" + POST + " of ");
    }
}
