/**
 * The fleet's certificates: a CA muster makes ({@link io.muster.agent.pki.FleetCa}), the certificates it issues to
 * etcd and to its clients (the common name is the etcd user), the list of those it revoked ({@code
 * RevocationList}), and their PEM files, written owner-only.
 *
 * <p>Certificates are encoded here (a small DER writer) and signed with the JDK's ECDSA: the JDK has no public API
 * to issue a certificate, and BouncyCastle (bcprov + bcpkix, some 9 MB) would be the biggest dependency of the
 * runtime for one fixed certificate shape; shelling out to openssl would make the fleet's security depend on a
 * binary and its version on each coordinator. The JDK parses every certificate made, and etcd and netty verify them.
 */
package io.muster.agent.pki;
