/**
 * Passkeys of the staff console (docs/admin-console.md § Passkeys), as SQLite's 0017: each admin's
 * WebAuthn credentials (gone with their admin) and the challenges of the ceremonies under way.
 */
export default /* sql */ `
CREATE TABLE admin_passkeys (
  id text PRIMARY KEY,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter int8 NOT NULL,
  transports text NOT NULL,
  admin_id text NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
  club text NOT NULL,
  name text NOT NULL,
  created_at int8 NOT NULL,
  last_used_at int8
);
CREATE INDEX admin_passkeys_by_admin ON admin_passkeys(admin_id, created_at);

CREATE TABLE passkey_challenges (
  challenge text PRIMARY KEY,
  purpose text NOT NULL,
  bound_to text NOT NULL,
  expires_at int8 NOT NULL
);
CREATE INDEX passkey_challenges_by_expiry ON passkey_challenges(expires_at);
`
