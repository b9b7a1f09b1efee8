/**
 * Issuance ids become random (sequential ids let anyone who counts read every recipient
 * through the public verdict). Issue order moves to its own column, `seq`: lists, cursors and the
 * signing queue sort by it. Existing rows keep their ids, and their `seq` is their id, so cursors handed
 * out before, certificate numbers and the queue order are unchanged.
 *
 * The sequence is a counter row, not MAX(seq) + 1, so that a number is never handed out twice even if
 * issuances are ever deleted; it starts where AUTOINCREMENT stopped (sqlite_sequence remembers the
 * highest id ever given).
 *
 * `credentials` was keyed by the issuance id so that its rows (a JWT each, close to a page) append at
 * the end of its b-tree (see 0003). Random ids would scatter them, splitting a page per credential, so
 * the table is rebuilt on its own rowid (append order) with the issuance id as a unique column: the
 * same one-credential-per-issuance constraint, found through an index. Nothing references the table.
 */
export default /* sql */ `
ALTER TABLE issuances ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
UPDATE issuances SET seq = id;
CREATE UNIQUE INDEX issuances_by_seq ON issuances(seq);
DROP INDEX issuances_by_club;
CREATE INDEX issuances_by_club ON issuances(club, seq);
DROP INDEX issuances_by_template;
CREATE INDEX issuances_by_template ON issuances(club, achievement_id, seq);

CREATE TABLE sequences (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
INSERT INTO sequences (name, value)
  VALUES ('issuances', max(
    coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'issuances'), 0),
    coalesce((SELECT max(seq) FROM issuances), 0)));

CREATE TABLE credentials_by_rowid (
  row INTEGER PRIMARY KEY,
  issuance_id INTEGER NOT NULL UNIQUE REFERENCES issuances(id),
  id TEXT NOT NULL UNIQUE,
  club TEXT NOT NULL,
  jwt TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  valid_until INTEGER,
  status_list_id INTEGER NOT NULL,
  status_list_index INTEGER NOT NULL,
  UNIQUE (status_list_id, status_list_index)
) STRICT;
INSERT INTO credentials_by_rowid (issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
  SELECT issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index FROM credentials ORDER BY issuance_id;
DROP TABLE credentials;
ALTER TABLE credentials_by_rowid RENAME TO credentials;

ALTER TABLE signing_jobs ADD COLUMN issuance_seq INTEGER NOT NULL DEFAULT 0;
UPDATE signing_jobs SET issuance_seq = (SELECT seq FROM issuances WHERE issuances.id = signing_jobs.issuance_id);
DROP INDEX signing_jobs_by_lease;
CREATE INDEX signing_jobs_by_lease ON signing_jobs(lease_until, issuance_seq);
`
