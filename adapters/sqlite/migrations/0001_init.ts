/** Clubs, API clients and signing keys. */
export default /* sql */ `
CREATE TABLE clubs (
  domain TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  can_issue INTEGER NOT NULL,
  issuer_verified INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE clients (
  id TEXT PRIMARY KEY,
  club TEXT NOT NULL REFERENCES clubs(domain),
  secret_hash TEXT NOT NULL,
  scopes TEXT NOT NULL,
  secret_set_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE keys (
  kid TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  alg TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  sealed_private_key TEXT NOT NULL,
  active INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

-- At most one active key per owner: concurrent first-need creations cannot both win.
CREATE UNIQUE INDEX keys_one_active_per_owner ON keys(owner) WHERE active = 1;
CREATE INDEX keys_by_owner ON keys(owner, created_at, kid);
`
