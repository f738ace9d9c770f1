package io.muster.engine.manifest;

import java.nio.file.Path;

/** A position in a manifest: every error a user sees points at one. Lines and columns count from 1. */
public record Mark(Path file, int line, int column) {

    public static Mark of(Path file) {
        return new Mark(file, 1, 1);
    }

    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
