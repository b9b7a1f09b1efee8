/**
 * The staff console (docs/admin-console.md), as SQLite's 0014: administrators (an e-mail unique across
 * clubs, the failed-login window on the row) and their sessions, by hashes only.
 */
export default /* sql */ `
CREATE TABLE admins (
  id text PRIMARY KEY,
  club text NOT NULL REFERENCES clubs(domain),
  email text NOT NULL UNIQUE,
  name text NOT NULL,
  password_hash text,
  setup_token_hash text UNIQUE,
  setup_expires_at int8,
  login_failures int4 NOT NULL DEFAULT 0,
  login_failures_end_at int8 NOT NULL DEFAULT 0,
  created_at int8 NOT NULL
);
CREATE INDEX admins_by_club ON admins(club, email);

CREATE TABLE admin_sessions (
  id_hash text PRIMARY KEY,
  admin_id text NOT NULL REFERENCES admins(id) ON DELETE CASCADE,
  club text NOT NULL,
  created_at int8 NOT NULL,
  last_seen_at int8 NOT NULL
);
CREATE INDEX admin_sessions_by_admin ON admin_sessions(admin_id);
CREATE INDEX admin_sessions_by_last_seen ON admin_sessions(last_seen_at);
`
