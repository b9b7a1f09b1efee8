/**
 * Passkeys of the staff console (docs/admin-console.md § Passkeys): each admin's WebAuthn credentials,
 * gone with their admin by the cascade, and the challenges of the ceremonies under way, each deleted
 * when used and purged after its expiry (any node may check one: no process memory).
 */
export default /* sql */ `
CREATE TABLE admin_passkeys (
  id TEXT PRIMARY KEY,
  credential_id TEXT NOT NULL UNIQUE,
  public_key TEXT NOT NULL,
  counter INTEGER NOT NULL,
  transports TEXT NOT NULL,
  admin_id TEXT NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
  club TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_used_at INTEGER
) STRICT;
CREATE INDEX admin_passkeys_by_admin ON admin_passkeys(admin_id, created_at);

CREATE TABLE passkey_challenges (
  challenge TEXT PRIMARY KEY,
  purpose TEXT NOT NULL,
  bound_to TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges(expires_at);
`
