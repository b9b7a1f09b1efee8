/**
 * Wallets taking credentials (docs/decisions/0047-claims-and-expiry.md): one row per take. `first` marks
 * the issuance's first claim, and the partial unique index holds one such row per issuance: a constraint,
 * so that of two nodes recording a first claim at once one gets it and emits `issuance.claimed`. The same
 * index answers the list's `claimed` filter by one lookup per issuance the page walks.
 */
export default /* sql */ `
CREATE TABLE issuance_claims (
  id INTEGER PRIMARY KEY,
  issuance_id INTEGER NOT NULL REFERENCES issuances(id),
  club TEXT NOT NULL,
  via TEXT NOT NULL,
  format TEXT NOT NULL,
  at INTEGER NOT NULL,
  first INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX issuance_claims_first ON issuance_claims(issuance_id) WHERE first = 1;
CREATE INDEX issuance_claims_by_issuance ON issuance_claims(issuance_id, at);
`
