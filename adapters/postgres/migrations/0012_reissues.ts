/**
 * Reissues (docs/decisions/0046-reissue.md), as SQLite's 0019: each accepted reissue, and the earlier
 * versions of credentials that a newer version replaced, kept unchanged with their proofs.
 */
export default /* sql */ `
CREATE TABLE reissues (
  n int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  club text NOT NULL,
  issuance_id int8 NOT NULL,
  previous_issuance_id int8,
  reason text,
  awarded_at int8,
  reissued_at int8 NOT NULL
);
CREATE INDEX reissues_by_issuance ON reissues(issuance_id);
CREATE INDEX reissues_by_previous ON reissues(previous_issuance_id) WHERE previous_issuance_id IS NOT NULL;

CREATE TABLE credential_versions (
  id text NOT NULL,
  version int4 NOT NULL,
  issuance_id int8 NOT NULL,
  club text NOT NULL,
  jwt text NOT NULL,
  issued_at int8 NOT NULL,
  valid_until int8,
  status_list_id int8 NOT NULL,
  status_list_index int8 NOT NULL,
  proof text,
  PRIMARY KEY (id, version)
);

-- issuance.reissued of a re-route names the issuance the credential moved from.
ALTER TABLE events ADD COLUMN previous_issuance_id text;
`
