/** Legacy API keys, stored as hashes. */
export default /* sql */ `
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  club TEXT NOT NULL REFERENCES clubs(domain),
  secret_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
`
