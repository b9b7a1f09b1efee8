/**
 * Claims and expiry (docs/decisions/0047-claims-and-expiry.md).
 *
 * - `issuance_claims`: wallets taking credentials, one row per take. `first` marks the issuance's first
 *   claim, and the partial unique index holds one such row per issuance: a constraint, so that of two
 *   nodes recording a first claim at once one gets it and emits `issuance.claimed`. The same index
 *   answers `claimed=false` by one lookup per issuance the page walks; `claimed=true` walks the club's
 *   first claims in issue order instead (`issuance_claims_by_club`), as `pending` walks the queue.
 * - `achievements.expiry_reminders`: the template's reminders, a JSON array of durations.
 * - `issuance_notices`: each reminder and `expired` notice an issuance got, once (the primary key).
 * - `expiry_sweeps`: where each sweep has got to, shared by every process on the file. The sweep of new
 *   issuances starts after those stored already (none was made inside a reminder's window), and the
 *   `expired` sweep at the migration's time (nothing is told of what expired before).
 * - `share_views`: the share page's views per credential, added in batches by each node.
 * - `issuances_by_valid_until`: the issuances that can expire, in the sweeps' order, so that a sweep
 *   reads only what came due since its last round.
 */
export default /* sql */ `
CREATE TABLE issuance_claims (
  id INTEGER PRIMARY KEY,
  issuance_id INTEGER NOT NULL REFERENCES issuances(id),
  issuance_seq INTEGER NOT NULL,
  club TEXT NOT NULL,
  via TEXT NOT NULL,
  format TEXT NOT NULL,
  at INTEGER NOT NULL,
  first INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX issuance_claims_first ON issuance_claims(issuance_id) WHERE first = 1;
CREATE INDEX issuance_claims_by_issuance ON issuance_claims(issuance_id, at);
CREATE INDEX issuance_claims_by_club ON issuance_claims(club, issuance_seq) WHERE first = 1;
ALTER TABLE achievements ADD COLUMN expiry_reminders TEXT NOT NULL DEFAULT '[]';
CREATE TABLE issuance_notices (
  issuance_id INTEGER NOT NULL REFERENCES issuances(id),
  notice TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (issuance_id, notice)
) STRICT, WITHOUT ROWID;
CREATE TABLE expiry_sweeps (
  name TEXT PRIMARY KEY,
  at INTEGER NOT NULL,
  seq INTEGER NOT NULL
) STRICT;
INSERT INTO expiry_sweeps (name, at, seq) SELECT 'issued', 0, coalesce(max(seq), 0) FROM issuances;
INSERT INTO expiry_sweeps (name, at, seq) VALUES ('expired', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER), 9007199254740991);
CREATE INDEX issuances_by_valid_until ON issuances(valid_until, seq) WHERE valid_until IS NOT NULL AND revoked_at IS NULL;
CREATE TABLE share_views (
  credential_id TEXT PRIMARY KEY REFERENCES credentials(id),
  views INTEGER NOT NULL,
  last_viewed_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX issuance_claims_by_time ON issuance_claims(club, at) WHERE first = 1;
CREATE INDEX issuances_by_created ON issuances(club, created_at);
`
