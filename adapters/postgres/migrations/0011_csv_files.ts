/** The staff console's previewed CSV files in parts (docs/admin-console.md § Issuing by CSV), as SQLite's 0018. */
export default /* sql */ `
CREATE TABLE csv_files (
  club text NOT NULL REFERENCES clubs(domain),
  digest text NOT NULL,
  created_at int8 NOT NULL,
  PRIMARY KEY (club, digest)
);

CREATE INDEX csv_files_by_created_at ON csv_files (created_at);

CREATE TABLE csv_file_parts (
  club text NOT NULL,
  digest text NOT NULL,
  part int8 NOT NULL,
  text text NOT NULL,
  PRIMARY KEY (club, digest, part),
  FOREIGN KEY (club, digest) REFERENCES csv_files (club, digest) ON DELETE CASCADE
);
`
