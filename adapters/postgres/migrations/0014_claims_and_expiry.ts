/**
 * Claims and expiry (docs/decisions/0047-claims-and-expiry.md), as SQLite's 0021: wallets' takes (the
 * partial unique index holds one `first` row per issuance, so that of nodes recording a first claim at
 * once exactly one gets it, and answers the list's `claimed` filter by one lookup per issuance); the
 * templates' reminders; each notice an issuance got, once; the sweeps' positions, shared by every node;
 * the issuances that can expire in the sweeps' order; and the share page's views per credential.
 */
export default /* sql */ `
CREATE TABLE issuance_claims (
  id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  issuance_id int8 NOT NULL REFERENCES issuances(id),
  issuance_seq int8 NOT NULL,
  club text NOT NULL,
  via text NOT NULL,
  format text NOT NULL,
  at int8 NOT NULL,
  first boolean NOT NULL
);
CREATE UNIQUE INDEX issuance_claims_first ON issuance_claims(issuance_id) WHERE first;
CREATE INDEX issuance_claims_by_issuance ON issuance_claims(issuance_id, at);
CREATE INDEX issuance_claims_by_club ON issuance_claims(club, issuance_seq) WHERE first;
ALTER TABLE achievements ADD COLUMN expiry_reminders text NOT NULL DEFAULT '[]';
CREATE TABLE issuance_notices (
  issuance_id int8 NOT NULL REFERENCES issuances(id),
  notice text NOT NULL,
  at int8 NOT NULL,
  PRIMARY KEY (issuance_id, notice)
);
CREATE TABLE expiry_sweeps (
  name text PRIMARY KEY,
  at int8 NOT NULL,
  seq int8 NOT NULL
);
INSERT INTO expiry_sweeps (name, at, seq) SELECT 'issued', 0, coalesce(max(seq), 0) FROM issuances;
INSERT INTO expiry_sweeps (name, at, seq) VALUES ('expired', (extract(epoch FROM now()) * 1000)::int8, 9007199254740991);
CREATE INDEX issuances_by_valid_until ON issuances(valid_until, seq) WHERE valid_until IS NOT NULL AND revoked_at IS NULL;
CREATE TABLE share_views (
  credential_id text PRIMARY KEY REFERENCES credentials(id),
  views int8 NOT NULL,
  last_viewed_at int8 NOT NULL
);
CREATE INDEX issuance_claims_by_time ON issuance_claims(club, at) WHERE first;
CREATE INDEX issuances_by_created ON issuances(club, created_at);
`
