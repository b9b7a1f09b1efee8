/**
 * Failed client authentications, shared by every process on the database. The foreign key
 * keeps rows to clients that exist and drops a client's window with the client; the index serves the
 * purge of ended windows.
 */
export default /* sql */ `
CREATE TABLE client_auth_failures (
  client_id TEXT PRIMARY KEY REFERENCES clients(id) ON DELETE CASCADE,
  failures INTEGER NOT NULL,
  ends_at INTEGER NOT NULL
) STRICT;
CREATE INDEX client_auth_failures_by_end ON client_auth_failures(ends_at);
`
