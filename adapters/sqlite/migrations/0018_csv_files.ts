/**
 * The staff console's previewed CSV files (docs/admin-console.md § Issuing by CSV): kept between the
 * preview and its confirmation so that any node can take the confirmation, addressed by the club and
 * the file's SHA-256; the confirmation removes its file, and housekeeping removes a file unconfirmed
 * after a day (by `created_at`). The text is kept in parts of at most 1 Mi characters, written one
 * statement each: one statement of 16 MiB held the event loop for a few tenths of a second.
 */
export default /* sql */ `
CREATE TABLE csv_files (
  club TEXT NOT NULL REFERENCES clubs(domain),
  digest TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (club, digest)
) STRICT;

CREATE INDEX csv_files_by_created_at ON csv_files (created_at);

CREATE TABLE csv_file_parts (
  club TEXT NOT NULL,
  digest TEXT NOT NULL,
  part INTEGER NOT NULL,
  text TEXT NOT NULL,
  PRIMARY KEY (club, digest, part),
  FOREIGN KEY (club, digest) REFERENCES csv_files (club, digest) ON DELETE CASCADE
) STRICT;
`
