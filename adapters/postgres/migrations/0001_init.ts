/**
 * The whole schema as SQLite has it after its migrations 0001..0007 (clubs, clients and keys;
 * templates; issuing; designs and images; legacy API keys), written for PostgreSQL in one step: this
 * adapter's own history starts here. Differences from SQLite, each on purpose:
 * - ids from identity columns and the issuance order from a sequence, all `CACHE 1`: numbers are taken
 *   by the session that asks, in the order sessions ask, and never reused (a rolled-back unit leaves a
 *   gap). Together with the unit lock (storage.ts) this makes them increase in commit order;
 * - ms timestamps and ids are int8; JSON stays text, written and read back as the adapter wrote it;
 * - text that is sorted (kids, API key ids) uses the "C" collation, byte order like SQLite, whatever
 *   the host database's locale;
 * - e-mail lookups go through an index on lower(email) (SQLite: COLLATE NOCASE).
 */
export default /* sql */ `
CREATE TABLE clubs (
  domain text PRIMARY KEY,
  name text NOT NULL,
  can_issue boolean NOT NULL,
  issuer_verified boolean NOT NULL,
  created_at int8 NOT NULL
);

CREATE TABLE clients (
  id text PRIMARY KEY,
  club text NOT NULL REFERENCES clubs(domain),
  secret_hash text NOT NULL,
  scopes text NOT NULL,
  secret_set_at int8 NOT NULL,
  created_at int8 NOT NULL
);

CREATE TABLE keys (
  kid text COLLATE "C" PRIMARY KEY,
  owner text NOT NULL,
  alg text NOT NULL,
  public_jwk text NOT NULL,
  sealed_private_key text NOT NULL,
  active boolean NOT NULL,
  created_at int8 NOT NULL
);

-- At most one active key per owner: concurrent first-need creations cannot both win.
CREATE UNIQUE INDEX keys_one_active_per_owner ON keys(owner) WHERE active;
CREATE INDEX keys_by_owner ON keys(owner, created_at, kid);

CREATE TABLE achievements (
  id int8 GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  club text NOT NULL REFERENCES clubs(domain),
  name text NOT NULL,
  name_en text,
  type text NOT NULL,
  description text NOT NULL,
  description_en text,
  imprint_description text NOT NULL,
  imprint_description_en text,
  tag text NOT NULL,
  program text,
  co_issuers text NOT NULL,
  prefix text,
  course_begin_at text,
  course_end_at text,
  badge_design_id int8,
  certificate_design_id int8,
  issued_count int8 NOT NULL DEFAULT 0,
  created_at int8 NOT NULL,
  updated_at int8 NOT NULL
);

CREATE INDEX achievements_by_club ON achievements(club, id);

CREATE TABLE requirements (
  id int8 GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  achievement_id int8 NOT NULL REFERENCES achievements(id) ON DELETE CASCADE,
  type text,
  description text,
  url text,
  sort_order int4 NOT NULL
);

CREATE INDEX requirements_by_achievement ON requirements(achievement_id);

CREATE TABLE snapshots (
  id int8 GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  club text NOT NULL,
  achievement_id int8 NOT NULL,
  view text NOT NULL,
  created_at int8 NOT NULL
);

-- The issue order: lists, cursors and the signing queue sort by it (the ids are random).
CREATE SEQUENCE issuance_seq CACHE 1;

CREATE TABLE issuances (
  id int8 PRIMARY KEY,
  seq int8 NOT NULL UNIQUE,
  club text NOT NULL REFERENCES clubs(domain),
  achievement_id int8 NOT NULL REFERENCES achievements(id),
  snapshot_id int8 NOT NULL REFERENCES snapshots(id),
  external_user_id text,
  recipient_name text NOT NULL,
  recipient_email text NOT NULL,
  evidences text NOT NULL,
  mode text NOT NULL,
  expires_at int8,
  created_at int8 NOT NULL,
  revoked_at int8,
  revocation_reason text
);

CREATE INDEX issuances_by_club ON issuances(club, seq);
CREATE INDEX issuances_by_template ON issuances(club, achievement_id, seq);
CREATE INDEX issuances_by_external_user ON issuances(club, achievement_id, external_user_id) WHERE external_user_id IS NOT NULL;
CREATE INDEX issuances_by_email ON issuances(club, achievement_id, lower(recipient_email));

-- One credential per issuance, and one credential per status slot: the constraints, not the workers,
-- guarantee both.
CREATE TABLE credentials (
  issuance_id int8 NOT NULL UNIQUE REFERENCES issuances(id),
  id text PRIMARY KEY,
  club text NOT NULL,
  jwt text NOT NULL,
  issued_at int8 NOT NULL,
  valid_until int8,
  status_list_id int8 NOT NULL,
  status_list_index int8 NOT NULL,
  UNIQUE (status_list_id, status_list_index)
);

CREATE TABLE signing_jobs (
  issuance_id int8 PRIMARY KEY REFERENCES issuances(id),
  issuance_seq int8 NOT NULL,
  club text NOT NULL,
  status_list_id int8,
  status_list_index int8,
  attempts int4 NOT NULL DEFAULT 0,
  lease_until int8,
  last_error text
);

CREATE INDEX signing_jobs_by_seq ON signing_jobs(issuance_seq);

CREATE TABLE status_lists (
  id int8 GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  club text NOT NULL,
  purpose text NOT NULL,
  size int4 NOT NULL,
  seed text NOT NULL,
  allocated int4 NOT NULL DEFAULT 0,
  created_at int8 NOT NULL,
  CHECK (allocated <= size)
);

CREATE INDEX status_lists_by_club ON status_lists(club, purpose, id);

CREATE TABLE events (
  id int8 GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  club text NOT NULL,
  type text NOT NULL,
  subject_type text NOT NULL,
  subject_id text NOT NULL,
  occurred_at int8 NOT NULL
);

CREATE INDEX events_by_club ON events(club, id);

CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  response_status int4,
  response_body text,
  created_at int8 NOT NULL,
  expires_at int8 NOT NULL,
  PRIMARY KEY (scope, key)
);

CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys(expires_at);

CREATE TABLE outbox (
  id int8 GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  club text NOT NULL,
  issuance_id int8 NOT NULL,
  recipient text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL,
  attempts int4 NOT NULL DEFAULT 0,
  next_attempt_at int8 NOT NULL,
  sent_at int8,
  last_error text,
  created_at int8 NOT NULL
);

CREATE INDEX outbox_due ON outbox(next_attempt_at, id) WHERE sent_at IS NULL;
CREATE INDEX outbox_by_issuance ON outbox(issuance_id, id);

CREATE TABLE images (
  hash text PRIMARY KEY,
  media_type text NOT NULL,
  bytes bytea NOT NULL
);

CREATE TABLE designs (
  id int8 GENERATED ALWAYS AS IDENTITY (CACHE 1) PRIMARY KEY,
  club text NOT NULL REFERENCES clubs(domain),
  kind text NOT NULL,
  name text NOT NULL,
  image text REFERENCES images(hash),
  layout text,
  created_at int8 NOT NULL,
  updated_at int8 NOT NULL
);

CREATE INDEX designs_by_club ON designs(club, id);

CREATE TABLE api_keys (
  id text COLLATE "C" PRIMARY KEY,
  club text NOT NULL REFERENCES clubs(domain),
  secret_hash text NOT NULL,
  created_at int8 NOT NULL,
  revoked_at int8
);

CREATE INDEX api_keys_by_club ON api_keys(club, created_at, id);
`
