/** Designs (badge images, certificate layouts) and content-addressed images. */
export default /* sql */ `
CREATE TABLE images (
  hash TEXT PRIMARY KEY,
  media_type TEXT NOT NULL,
  bytes BLOB NOT NULL
) STRICT;

CREATE TABLE designs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  club TEXT NOT NULL REFERENCES clubs(domain),
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  image TEXT REFERENCES images(hash),
  layout TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE INDEX designs_by_club ON designs(club, id);
`
