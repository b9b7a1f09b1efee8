/**
 * Two things a busy deployment showed (docs/benchmarks/history.md § 2026-11-26: PostgreSQL throughput, where the time goes).
 *
 * A template's issuances are indexed by the template first: its id is unique across clubs, so the club
 * need not lead (queries still name it). Each of the three indexes now has its own second column
 * (`seq`, `external_user_id`, `lower(recipient_email)`), so that each lookup has exactly one index that
 * answers it from the index alone. Led by `(club, achievement_id)`, all three matched every lookup as
 * far as their first two columns, and before the table had statistics the planner took any of them and
 * read the template's every issuance for each recipient (0.7 s for a batch of 1,000 at 3,000 issuances,
 * 15 s at 20,000, where the right index answers in 4 ms). The external id's index also indexes nulls:
 * a partial index is only taken when the planner proves its predicate, which it did not always do.
 *
 * A signing job's row is written four times (queued, leased, given its status slot, removed). Its
 * foreign key to the issuance is dropped: it locked the issuance row for every job (a write and a WAL
 * record each), and a job for an issuance that does not exist is refused anyway, since the job's
 * `issuance_seq` (NOT NULL) is copied from the issuance as it is queued. Its pages keep room (fillfactor
 * 70), so that the lease and the slot are written in place (HOT) rather than into both its indexes.
 *
 * The queues (`signing_jobs`, `outbox`) are vacuumed after every 10,000 dead rows, whatever their size:
 * a FIFO's dead rows sit exactly at the head of its index, where every claim starts, and the default
 * (a fifth of the table changed) let a claim walk some hundred thousand of them first (161 ms instead of
 * 13 at 100,000 waiting).
 */
export default /* sql */ `
DROP INDEX issuances_by_template;
DROP INDEX issuances_by_external_user;
DROP INDEX issuances_by_email;
CREATE INDEX issuances_by_template ON issuances(achievement_id, seq);
CREATE INDEX issuances_by_external_user ON issuances(achievement_id, external_user_id);
CREATE INDEX issuances_by_email ON issuances(achievement_id, lower(recipient_email));
ALTER TABLE signing_jobs DROP CONSTRAINT signing_jobs_issuance_id_fkey;
ALTER TABLE signing_jobs SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 10000);
ALTER TABLE outbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
`
