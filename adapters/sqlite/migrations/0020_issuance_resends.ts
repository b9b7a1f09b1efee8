/**
 * Resend requests of issuances (`POST …/notify`, docs/decisions/0045-resend-and-bulk-revoke.md): counted
 * per issuance over the last 24 hours for the limit, and those not mailed yet (made before the
 * credential existed) found by the partial index; and the events of one subject, newest first
 * (`events.listBySubject`).
 */
export default /* sql */ `
CREATE TABLE issuance_resends (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  club TEXT NOT NULL,
  issuance_id INTEGER NOT NULL REFERENCES issuances(id),
  requested_at INTEGER NOT NULL,
  mailed_at INTEGER
) STRICT;
CREATE INDEX issuance_resends_by_issuance ON issuance_resends(issuance_id, requested_at);
CREATE INDEX issuance_resends_unmailed ON issuance_resends(id) WHERE mailed_at IS NULL;

-- An issuance's mail events (issuance.notified, issuance.notification_failed) for its console page.
CREATE INDEX events_by_subject ON events(club, subject_type, subject_id, id);
`
