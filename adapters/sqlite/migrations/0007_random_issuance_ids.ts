/**
 * Issuance ids become random (issue 13: sequential ids let anyone who counts read every recipient
 * through the public verdict). Issue order moves to its own column, `seq`: lists, cursors and the
 * signing queue sort by it. Existing rows keep their ids, and their `seq` is their id, so cursors handed
 * out before, certificate numbers and the queue order are unchanged.
 *
 * The sequence is a counter row, not MAX(seq) + 1, so that a number is never handed out twice even if
 * issuances are ever deleted; it starts where AUTOINCREMENT stopped (sqlite_sequence remembers the
 * highest id ever given).
 *
 * `credentials` stays keyed by the issuance id, so its new rows land at random places in its b-tree
 * rather than at the end (see 0003); measured in docs/decisions.md "Issuance ids".
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

ALTER TABLE signing_jobs ADD COLUMN issuance_seq INTEGER NOT NULL DEFAULT 0;
UPDATE signing_jobs SET issuance_seq = (SELECT seq FROM issuances WHERE issuances.id = signing_jobs.issuance_id);
DROP INDEX signing_jobs_by_lease;
CREATE INDEX signing_jobs_by_lease ON signing_jobs(lease_until, issuance_seq);
`
