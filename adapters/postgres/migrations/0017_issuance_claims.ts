/**
 * Wallets taking credentials (docs/decisions/0047-claims-and-expiry.md), as SQLite's 0024: one row per
 * take; the partial unique index holds one `first` row per issuance, so that of nodes recording a first
 * claim at once exactly one gets it, and answers the list's `claimed` filter by one lookup per issuance.
 */
export default /* sql */ `
CREATE TABLE issuance_claims (
  id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  issuance_id int8 NOT NULL REFERENCES issuances(id),
  club text NOT NULL,
  via text NOT NULL,
  format text NOT NULL,
  at int8 NOT NULL,
  first boolean NOT NULL
);
CREATE UNIQUE INDEX issuance_claims_first ON issuance_claims(issuance_id) WHERE first;
CREATE INDEX issuance_claims_by_issuance ON issuance_claims(issuance_id, at);
`
