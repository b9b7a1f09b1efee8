/**
 * The staff console's issuance search and status filter (docs/admin-console.md § Issuances,
 * docs/decisions/0039-issuance-search.md): each filter walks an index in the list's order, so that a page
 * costs about the same in a club of a million issuances as in one of a hundred.
 *
 * - `valid_until`: the credential's `validUntil` (core/credentials/valid-until.ts), kept on the issuance
 *   from its insert, since it follows from `expires_at`: `expired` and `valid` compare it with the time of
 *   the request without reading the credential. Existing rows take their credential's, else the rule's.
 * - `issuances_revoked*`, `issuances_expiring*`: partial indexes of the revoked issuances and of those
 *   that can expire, by club and by template, in issue order; small where few issuances are either.
 * - `issuances_by_name`: names by key (NOCASE folds ASCII letters, as `nameKey` does), each newest first.
 * - `signing_jobs_by_club`: the queue by club, which is where the pending issuances are.
 * E-mail and external id need nothing new: the template-led indexes answer them, one lookup per template.
 */
export default /* sql */ `
ALTER TABLE issuances ADD COLUMN valid_until INTEGER;
UPDATE issuances SET valid_until = coalesce(
    (SELECT c.valid_until FROM credentials AS c WHERE c.issuance_seq = issuances.seq),
    (expires_at + 999) / 1000 * 1000)
  WHERE expires_at IS NOT NULL;
CREATE INDEX issuances_revoked ON issuances(club, seq) WHERE revoked_at IS NOT NULL;
CREATE INDEX issuances_revoked_by_template ON issuances(club, achievement_id, seq) WHERE revoked_at IS NOT NULL;
CREATE INDEX issuances_expiring ON issuances(club, seq, valid_until) WHERE valid_until IS NOT NULL AND revoked_at IS NULL;
CREATE INDEX issuances_expiring_by_template ON issuances(club, achievement_id, seq, valid_until) WHERE valid_until IS NOT NULL AND revoked_at IS NULL;
CREATE INDEX issuances_by_name ON issuances(club, recipient_name COLLATE NOCASE, seq DESC);
CREATE INDEX signing_jobs_by_club ON signing_jobs(club, issuance_seq);
`
