/**
 * Failed client authentications, shared by every node on the database (SQLite's 0008). The
 * foreign key keeps rows to clients that exist and drops a client's window with the client; the index
 * serves the purge of ended windows.
 */
export default /* sql */ `
CREATE TABLE client_auth_failures (
  client_id text PRIMARY KEY REFERENCES clients(id) ON DELETE CASCADE,
  failures int4 NOT NULL,
  ends_at int8 NOT NULL
);
CREATE INDEX client_auth_failures_by_end ON client_auth_failures(ends_at);
`
