/**
 * Webhook endpoints and their deliveries. Deleting an endpoint deletes its deliveries. The
 * claim reads two partial indexes per enabled endpoint, its due deliveries (earliest first) and its
 * leased ones, so it costs what it takes, not the backlog; `by_endpoint` serves the delivery log.
 */
export default /* sql */ `
CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,
  club TEXT NOT NULL,
  url TEXT NOT NULL,
  events TEXT,
  sealed_secret TEXT NOT NULL,
  previous_sealed_secret TEXT,
  previous_secret_until INTEGER,
  enabled INTEGER NOT NULL,
  consecutive_give_ups INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_endpoints_by_club ON webhook_endpoints(club, created_at, id);
CREATE TABLE webhook_deliveries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  club TEXT NOT NULL,
  event_id INTEGER NOT NULL,
  payload TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_until INTEGER,
  delivered_at INTEGER,
  given_up_at INTEGER,
  last_status INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL
) STRICT;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(endpoint_id, next_attempt_at, id) WHERE delivered_at IS NULL AND given_up_at IS NULL;
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(endpoint_id, lease_until) WHERE delivered_at IS NULL AND given_up_at IS NULL AND lease_until IS NOT NULL;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id, id);
`
