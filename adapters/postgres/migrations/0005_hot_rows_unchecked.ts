/**
 * The foreign keys of the two tables written for every credential are dropped: `issuances` to `clubs`,
 * `achievements` and `snapshots`, and `credentials` to `issuances`.
 *
 * PostgreSQL checks a foreign key with a query per row that locks the parent row (`FOR KEY SHARE`), so
 * each batch of 1,000 ran 4,000 locking queries: the largest share of the database's work per credential
 * after the rows themselves. They guard nothing the units do not already guarantee: nothing is ever
 * deleted from these five tables, a batch's issuances are written in the unit that reads their club,
 * template and snapshot, and a credential is written for the issuance its signing job was queued with
 * (the job's own foreign key went in migration 4, for the same reason). The unique constraints stay:
 * they, not the workers, keep one credential per issuance and per status slot. SQLite keeps its foreign
 * keys: it checks them in process, without a query or a row lock each.
 */
export default /* sql */ `
ALTER TABLE issuances DROP CONSTRAINT issuances_club_fkey;
ALTER TABLE issuances DROP CONSTRAINT issuances_achievement_id_fkey;
ALTER TABLE issuances DROP CONSTRAINT issuances_snapshot_id_fkey;
ALTER TABLE credentials DROP CONSTRAINT credentials_issuance_id_fkey;
`
