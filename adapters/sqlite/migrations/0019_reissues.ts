/**
 * Reissues (docs/decisions/0046-reissue.md): each accepted reissue, and the earlier versions of
 * credentials that a newer version replaced, kept unchanged (with their proofs) so that they still
 * verify and the detail can list them. The `credentials` row stays the newest version.
 */
export default /* sql */ `
CREATE TABLE reissues (
  n INTEGER PRIMARY KEY,
  club TEXT NOT NULL,
  issuance_id INTEGER NOT NULL,
  previous_issuance_id INTEGER,
  reason TEXT,
  awarded_at INTEGER,
  reissued_at INTEGER NOT NULL
) STRICT;
CREATE INDEX reissues_by_issuance ON reissues(issuance_id);
CREATE INDEX reissues_by_previous ON reissues(previous_issuance_id) WHERE previous_issuance_id IS NOT NULL;

CREATE TABLE credential_versions (
  id TEXT NOT NULL,
  version INTEGER NOT NULL,
  issuance_id INTEGER NOT NULL,
  club TEXT NOT NULL,
  jwt TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  valid_until INTEGER,
  status_list_id INTEGER NOT NULL,
  status_list_index INTEGER NOT NULL,
  proof TEXT,
  PRIMARY KEY (id, version)
) STRICT, WITHOUT ROWID;

-- issuance.reissued of a re-route names the issuance the credential moved from.
ALTER TABLE events ADD COLUMN previous_issuance_id TEXT;
`
