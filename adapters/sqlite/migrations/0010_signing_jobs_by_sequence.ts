/**
 * Signing jobs keyed by their issuance's sequence. Keyed by the random issuance id, the 1,000
 * jobs a round claims, and later deletes, lay on pages all over the table: with 100,000 waiting, each
 * claim rewrote most of the table into the WAL. By sequence, a round's jobs are neighbours, as they are
 * in the lease index the claim reads. The issuance id stays unique (one job per issuance) and is how
 * every other statement finds a job.
 */
export default /* sql */ `
CREATE TABLE signing_jobs_by_sequence (
  issuance_seq INTEGER PRIMARY KEY,
  issuance_id INTEGER NOT NULL UNIQUE REFERENCES issuances(id),
  club TEXT NOT NULL,
  status_list_id INTEGER,
  status_list_index INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER,
  last_error TEXT
) STRICT;
INSERT INTO signing_jobs_by_sequence (issuance_seq, issuance_id, club, status_list_id, status_list_index, attempts, lease_until, last_error)
  SELECT issuance_seq, issuance_id, club, status_list_id, status_list_index, attempts, lease_until, last_error FROM signing_jobs;
DROP TABLE signing_jobs;
ALTER TABLE signing_jobs_by_sequence RENAME TO signing_jobs;
CREATE INDEX signing_jobs_by_lease ON signing_jobs(lease_until, issuance_seq);
`
