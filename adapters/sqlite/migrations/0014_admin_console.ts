/**
 * The staff console (docs/admin-console.md): its administrators and their sessions. An e-mail is
 * unique across clubs (the login form asks for none); the setup token and the session id are stored as
 * hashes only. The failed-login window lives on the admin's row (client_auth_failures keys on clients),
 * so it goes with the admin; sessions go with their admin by the cascade.
 */
export default /* sql */ `
CREATE TABLE admins (
  id TEXT PRIMARY KEY,
  club TEXT NOT NULL REFERENCES clubs(domain),
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  password_hash TEXT,
  setup_token_hash TEXT UNIQUE,
  setup_expires_at INTEGER,
  login_failures INTEGER NOT NULL DEFAULT 0,
  login_failures_end_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX admins_by_club ON admins(club, email);

CREATE TABLE admin_sessions (
  id_hash TEXT PRIMARY KEY,
  admin_id TEXT NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
  club TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
) STRICT;
CREATE INDEX admin_sessions_by_admin ON admin_sessions(admin_id);
CREATE INDEX admin_sessions_by_last_seen ON admin_sessions(last_seen_at);
`
