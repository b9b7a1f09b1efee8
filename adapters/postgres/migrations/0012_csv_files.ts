/** The staff console's previewed CSV files (docs/admin-console.md § Issuing by CSV), as SQLite's 0019. */
export default /* sql */ `
CREATE TABLE csv_files (
  club text NOT NULL REFERENCES clubs(domain),
  digest text NOT NULL,
  text text NOT NULL,
  created_at int8 NOT NULL,
  PRIMARY KEY (club, digest)
);

CREATE INDEX csv_files_by_created_at ON csv_files (created_at);
`
