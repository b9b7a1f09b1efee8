/**
 * Credentials keyed by their issuance's sequence. Since 0006 they were keyed by their own
 * rowid, with a unique index on the random issuance id for "one credential per issuance": each signing
 * round's 1,000 entries fell on as many pages of that index, so at 1,000,000 credentials storing one wrote
 * about 47 KB to disk, twelve times its JWT (`npm run -s bench:round`). Keyed by the issuance's sequence
 * the rows still append (rounds claim in sequence order), the key itself is the one-credential-per-issuance
 * constraint, and the random index is gone: 30 KB, and 17 KB once credential ids became time-ordered
 * (core/credentials/credential-id.ts). The issuance id stays, with its foreign key, for every read by
 * issuance; those go through `issuances_by_id`.
 */
export default /* sql */ `
CREATE TABLE credentials_by_issuance_sequence (
  issuance_seq INTEGER PRIMARY KEY REFERENCES issuances(seq),
  issuance_id INTEGER NOT NULL REFERENCES issuances(id),
  id TEXT NOT NULL UNIQUE,
  club TEXT NOT NULL,
  jwt TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  valid_until INTEGER,
  status_list_id INTEGER NOT NULL,
  status_list_index INTEGER NOT NULL,
  UNIQUE (status_list_id, status_list_index)
) STRICT;
INSERT INTO credentials_by_issuance_sequence (issuance_seq, issuance_id, id, club, jwt, issued_at, valid_until, status_list_id, status_list_index)
  SELECT i.seq, c.issuance_id, c.id, c.club, c.jwt, c.issued_at, c.valid_until, c.status_list_id, c.status_list_index
  FROM credentials c JOIN issuances i ON i.id = c.issuance_id ORDER BY i.seq;
DROP TABLE credentials;
ALTER TABLE credentials_by_issuance_sequence RENAME TO credentials;
`
