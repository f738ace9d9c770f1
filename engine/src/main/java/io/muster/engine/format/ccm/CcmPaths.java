package io.muster.engine.format.ccm;

import io.muster.engine.manifest.Mark;

/** CCM's path rules: absolute, and canonical ({@code filepath.Clean(p) == p}: no {@code .}, {@code ..}, {@code //}, trailing {@code /}). */
final class CcmPaths {
    private CcmPaths() {}

    static boolean absolute(String path) {
        return path.startsWith("/");
    }

    static boolean canonical(String path) {
        if (path.equals("/")) return true;
        if (path.isEmpty() || path.endsWith("/") || path.contains("//")) return false;
        for (String part : path.split("/")) {
            if (part.equals(".") || part.equals("..")) return false;
        }
        return true;
    }

    /** Reports {@code what} unless {@code path} is absolute and canonical. */
    static void requireCanonical(CcmResource r, String path, Mark at, String what) {
        if (!canonical(path)) r.problem(at, what + " must be canonical, got '" + path + "'");
        else if (!absolute(path)) r.problem(at, what + " must be absolute, got '" + path + "'");
    }
}
