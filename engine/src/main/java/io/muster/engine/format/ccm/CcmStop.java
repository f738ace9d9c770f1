package io.muster.engine.format.ccm;

/**
 * Where a CCM run stops: CCM's manager answers a {@code require} of a resource not run yet with an error that ends
 * the whole apply, and {@code ccm apply} exits 1 then, while a resource that merely failed leaves it exiting 0. The
 * front end puts a failing {@code msg} named here in place of the resource; the CLI tells the two apart by the name.
 */
public final class CcmStop {
    private static final String PREFIX = "run stopped at ";

    private CcmStop() {}

    /** The name of the {@code msg} that stops the run at the resource {@code id}. */
    static String name(String id) {
        return PREFIX + id;
    }

    /** Whether the resource {@code id} (as reported, {@code kind#name}) is where a CCM run stopped. */
    public static boolean is(String id) {
        return id.startsWith("msg#" + PREFIX);
    }
}
