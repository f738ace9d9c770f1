/**
 * The {@code file} kind: a regular file or directory, its content, owner, group and mode, replaced atomically
 * and backed up for {@code meta.reverse}; a symbolic link ({@link io.muster.engine.resource.file.Link}); a tree
 * copied from a source directory ({@link io.muster.engine.resource.file.Tree}, watched by
 * {@link io.muster.engine.resource.file.TreeWatch}). A mode is octal or symbolic
 * ({@link io.muster.engine.resource.file.DesiredMode}, {@link io.muster.engine.resource.file.SymbolicMode}). {@link io.muster.engine.resource.file.FileMode} and
 * {@link io.muster.engine.resource.file.FileStat} are shared with the other kinds that write files.
 *
 * <p>May import {@code resource} (the SPI) and {@code util}; never another kind, {@code compile}, {@code run},
 * {@code report} or {@code cli}.
 */
package io.muster.engine.resource.file;
