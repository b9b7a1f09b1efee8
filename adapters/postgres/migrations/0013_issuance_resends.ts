/** Resend requests of issuances, as SQLite's 0020. */
export default /* sql */ `
CREATE TABLE issuance_resends (
  id int8 GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  club text NOT NULL,
  issuance_id int8 NOT NULL REFERENCES issuances(id),
  requested_at int8 NOT NULL,
  mailed_at int8
);
CREATE INDEX issuance_resends_by_issuance ON issuance_resends(issuance_id, requested_at);
CREATE INDEX issuance_resends_unmailed ON issuance_resends(id) WHERE mailed_at IS NULL;

-- An issuance's mail events (issuance.notified, issuance.notification_failed) for its console page.
CREATE INDEX events_by_subject ON events(club, subject_type, subject_id, id);
`
