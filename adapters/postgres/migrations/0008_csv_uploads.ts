/** The staff console's CSV uploads and each row's outcome (docs/admin-console.md § Issuing by CSV), as SQLite's 0015. */
export default /* sql */ `
CREATE TABLE csv_uploads (
  id text PRIMARY KEY,
  club text NOT NULL REFERENCES clubs(domain),
  key text NOT NULL,
  achievement_id int8 NOT NULL,
  mode text NOT NULL,
  row_count int8 NOT NULL,
  created_at int8 NOT NULL,
  UNIQUE (club, key)
);

CREATE TABLE csv_upload_rows (
  upload_id text NOT NULL REFERENCES csv_uploads(id) ON DELETE CASCADE,
  line int8 NOT NULL,
  external_user_id text,
  name text NOT NULL,
  email text NOT NULL,
  status text NOT NULL,
  issuance_id int8,
  code text,
  message text,
  field text,
  PRIMARY KEY (upload_id, line)
);
`
