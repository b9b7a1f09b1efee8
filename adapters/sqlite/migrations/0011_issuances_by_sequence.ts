/**
 * Issuances keyed by their sequence. Keyed by the random id (migration 0006), the table's
 * rows, about 250 bytes each, lay in id order, so the 1,000 rows of a batch landed on as many pages
 * all over the table and every batch's commit rewrote most of the table into the WAL: the more a file
 * held, the more each batch wrote. By sequence, a batch's rows are neighbours at the table's end; the
 * random id moves to a unique index of its own (about 12 bytes an entry), which is how every statement
 * but the lists still finds an issuance, and which the foreign keys of `credentials` and `signing_jobs`
 * point at. The `issuances_by_seq` index is the table's key now.
 *
 * The table is rebuilt as SQLite documents (https://sqlite.org/lang_altertable.html#otheralter): the
 * migrator turns foreign keys off around every migration and checks them before it commits.
 */
export default /* sql */ `
CREATE TABLE issuances_by_sequence (
  seq INTEGER PRIMARY KEY,
  id INTEGER NOT NULL,
  club TEXT NOT NULL REFERENCES clubs(domain),
  achievement_id INTEGER NOT NULL REFERENCES achievements(id),
  snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
  external_user_id TEXT,
  recipient_name TEXT NOT NULL,
  recipient_email TEXT NOT NULL,
  evidences TEXT NOT NULL,
  mode TEXT NOT NULL,
  expires_at INTEGER,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  revocation_reason TEXT
) STRICT;
INSERT INTO issuances_by_sequence (seq, id, club, achievement_id, snapshot_id, external_user_id, recipient_name,
    recipient_email, evidences, mode, expires_at, created_at, revoked_at, revocation_reason)
  SELECT seq, id, club, achievement_id, snapshot_id, external_user_id, recipient_name,
    recipient_email, evidences, mode, expires_at, created_at, revoked_at, revocation_reason
  FROM issuances ORDER BY seq;
DROP TABLE issuances;
ALTER TABLE issuances_by_sequence RENAME TO issuances;
CREATE UNIQUE INDEX issuances_by_id ON issuances(id);
CREATE INDEX issuances_by_external_user ON issuances(club, achievement_id, external_user_id) WHERE external_user_id IS NOT NULL;
CREATE INDEX issuances_by_email ON issuances(club, achievement_id, recipient_email COLLATE NOCASE);
CREATE INDEX issuances_by_club ON issuances(club, seq);
CREATE INDEX issuances_by_template ON issuances(club, achievement_id, seq);
`
