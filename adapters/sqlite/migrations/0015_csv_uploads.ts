/**
 * The staff console's CSV uploads (docs/admin-console.md § Issuing by CSV): an upload per confirmation,
 * unique by its key in the club so that the same confirmation posted again resumes it, and each row's
 * outcome, keyed by the line it starts on so that a retried chunk records nothing twice. The rows point
 * at issuances by id without a foreign key: a skipped row names the issuance the recipient already held.
 */
export default /* sql */ `
CREATE TABLE csv_uploads (
  id TEXT PRIMARY KEY,
  club TEXT NOT NULL REFERENCES clubs(domain),
  key TEXT NOT NULL,
  achievement_id INTEGER NOT NULL,
  mode TEXT NOT NULL,
  row_count INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (club, key)
) STRICT;

CREATE TABLE csv_upload_rows (
  upload_id TEXT NOT NULL REFERENCES csv_uploads(id) ON DELETE CASCADE,
  line INTEGER NOT NULL,
  external_user_id TEXT,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  status TEXT NOT NULL,
  issuance_id INTEGER,
  code TEXT,
  message TEXT,
  field TEXT,
  PRIMARY KEY (upload_id, line)
) STRICT;
`
