/**
 * The {@code archive} kind: a {@code .tar}, {@code .tar.gz}, {@code .tar.xz} or {@code .zip} from a local file or
 * an http(s) URL (with headers and basic authentication; its sha256 checked first), extracted into a directory
 * aside and moved into place, no entry escaping it; or, as puppet-archive and Choria CCM keep it, downloaded to a
 * file that stays, extracted from there or not. Archives are read with Apache Commons Compress (tar's GNU and PAX headers, zip's unix modes and
 * links, which {@code java.util.zip} cannot see) and XZ for Java.
 *
 * <p>May import {@code resource} (the SPI), {@code util} and, of the other kinds, {@code resource.file} alone,
 * for the parent directory every kind that writes files opens the same way; never {@code compile}, {@code run},
 * {@code report} or {@code cli}.
 */
package io.muster.engine.resource.archive;
