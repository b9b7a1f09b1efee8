/**
 * The staff console's issuance search and status filter (docs/admin-console.md § Issuances,
 * docs/decisions/0039-issuance-search.md), as SQLite's migration 0016: each filter walks an index in the
 * list's order.
 *
 * - `valid_until`: the credential's `validUntil` (core/credentials/valid-until.ts), kept on the issuance
 *   from its insert; existing rows take their credential's, else the rule's. Added without a default, so
 *   the table is not rewritten for the column; the UPDATE writes only the rows that can expire.
 * - Partial indexes of the revoked issuances and of those that can expire, by club and by template, in
 *   issue order (the time in the index, so that an expired page is read from the index alone).
 * - `issuances_by_name`: `lower()` under the "C" collation folds ASCII letters only and orders code
 *   point by code point, as SQLite's NOCASE and `nameKey` do, so that every adapter finds the same names.
 * - `signing_jobs_by_club`: the queue by club, which is where the pending issuances are. Its columns are
 *   written once per job, so the lease and the slot stay in-place (HOT) updates.
 * E-mail and external id need nothing new: the template-led indexes of migration 4 answer them, one
 * lookup per template.
 */
export default /* sql */ `
ALTER TABLE issuances ADD COLUMN valid_until int8;
UPDATE issuances AS i SET valid_until = coalesce(
    (SELECT c.valid_until FROM credentials AS c WHERE c.issuance_id = i.id),
    (i.expires_at + 999) / 1000 * 1000)
  WHERE i.expires_at IS NOT NULL;
CREATE INDEX issuances_revoked ON issuances(club, seq) WHERE revoked_at IS NOT NULL;
CREATE INDEX issuances_revoked_by_template ON issuances(achievement_id, seq) WHERE revoked_at IS NOT NULL;
CREATE INDEX issuances_expiring ON issuances(club, seq) INCLUDE (valid_until) WHERE valid_until IS NOT NULL AND revoked_at IS NULL;
CREATE INDEX issuances_expiring_by_template ON issuances(achievement_id, seq) INCLUDE (valid_until)
  WHERE valid_until IS NOT NULL AND revoked_at IS NULL;
CREATE INDEX issuances_by_name ON issuances(club, lower(recipient_name COLLATE "C"), seq DESC);
CREATE INDEX signing_jobs_by_club ON signing_jobs(club, issuance_seq);
`
