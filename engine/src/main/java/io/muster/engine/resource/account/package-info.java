/**
 * {@code user} and {@code group}: local accounts, changed through the shadow suite's own tools
 * ({@code useradd}/{@code usermod}/{@code userdel}, {@code groupadd}/{@code groupmod}/{@code groupdel},
 * {@code gpasswd -M} for a group's members) and read through {@code getent} ({@link
 * io.muster.engine.resource.account.AccountDatabase}), so that what the name services answer is what is compared.
 * A user's password is a crypt hash, never shown: reports say only that it changed, a failing command is quoted
 * without it.
 */
package io.muster.engine.resource.account;
