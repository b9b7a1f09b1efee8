/** Issuing: snapshots, issuances, credentials, the signing queue, status lists, events, idempotency, outbox. */
export default /* sql */ `
CREATE TABLE snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  club TEXT NOT NULL,
  achievement_id INTEGER NOT NULL,
  view TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;

CREATE TABLE issuances (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  club TEXT NOT NULL REFERENCES clubs(domain),
  achievement_id INTEGER NOT NULL REFERENCES achievements(id),
  snapshot_id INTEGER NOT NULL REFERENCES snapshots(id),
  external_user_id TEXT,
  recipient_name TEXT NOT NULL,
  recipient_email TEXT NOT NULL,
  evidences TEXT NOT NULL,
  mode TEXT NOT NULL,
  expires_at INTEGER,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER,
  revocation_reason TEXT
) STRICT;

CREATE INDEX issuances_by_club ON issuances(club, id);
CREATE INDEX issuances_by_template ON issuances(club, achievement_id, id);
CREATE INDEX issuances_by_external_user ON issuances(club, achievement_id, external_user_id) WHERE external_user_id IS NOT NULL;
CREATE INDEX issuances_by_email ON issuances(club, achievement_id, recipient_email COLLATE NOCASE);

-- One credential per issuance: the key, not the worker, guarantees it. (Keyed by the issuance's
-- integer id rather than the random UUID: appends at the end of the table instead of random inserts.)
CREATE TABLE credentials (
  issuance_id INTEGER PRIMARY KEY REFERENCES issuances(id),
  id TEXT NOT NULL UNIQUE,
  club TEXT NOT NULL,
  jwt TEXT NOT NULL,
  issued_at INTEGER NOT NULL,
  valid_until INTEGER,
  status_list_id INTEGER NOT NULL,
  status_list_index INTEGER NOT NULL,
  UNIQUE (status_list_id, status_list_index)
) STRICT;

CREATE TABLE signing_jobs (
  issuance_id INTEGER PRIMARY KEY REFERENCES issuances(id),
  club TEXT NOT NULL,
  status_list_id INTEGER,
  status_list_index INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER,
  last_error TEXT
) STRICT;

CREATE INDEX signing_jobs_by_lease ON signing_jobs(lease_until, issuance_id);

CREATE TABLE status_lists (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  club TEXT NOT NULL,
  purpose TEXT NOT NULL,
  size INTEGER NOT NULL,
  seed TEXT NOT NULL,
  allocated INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX status_lists_by_club ON status_lists(club, purpose, id);

CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  club TEXT NOT NULL,
  type TEXT NOT NULL,
  subject_type TEXT NOT NULL,
  subject_id TEXT NOT NULL,
  occurred_at INTEGER NOT NULL
) STRICT;

CREATE INDEX events_by_club ON events(club, id);

CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response_status INTEGER,
  response_body TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) STRICT;

CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys(expires_at);

CREATE TABLE outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  club TEXT NOT NULL,
  issuance_id INTEGER NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  html_body TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  sent_at INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL
) STRICT;

CREATE INDEX outbox_due ON outbox(next_attempt_at, id) WHERE sent_at IS NULL;
CREATE INDEX outbox_by_issuance ON outbox(issuance_id, id);
`
