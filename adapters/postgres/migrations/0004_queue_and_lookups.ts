/**
 * Two things a busy deployment showed (docs/benchmarks.md, PostgreSQL throughput).
 *
 * The template's issuances are found by `(achievement_id, seq)`: a template's id is unique across clubs,
 * so the club need not lead. Led by `(club, achievement_id)`, the index matched the already-issued
 * lookup by e-mail as well as the e-mail index did, and before the table had statistics the planner
 * took it and read the template's every issuance for each recipient (15 s for a batch of 1,000 at
 * 20,000 issuances, where the e-mail index answers in 4 ms).
 *
 * The queues (`signing_jobs`, `outbox`) are vacuumed after every 10,000 dead rows, whatever their size:
 * a FIFO's dead rows sit exactly at the head of its index, where every claim starts, and the default
 * (a fifth of the table changed) let a claim walk some hundred thousand of them first (161 ms instead of
 * 13 at 100,000 waiting).
 */
export default /* sql */ `
DROP INDEX issuances_by_template;
CREATE INDEX issuances_by_template ON issuances(achievement_id, seq);
ALTER TABLE signing_jobs SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000,
  autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 10000);
ALTER TABLE outbox SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 10000);
`
