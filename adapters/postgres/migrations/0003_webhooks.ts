/**
 * Webhook endpoints and their deliveries (SQLite's 0009). Deleting an endpoint deletes its
 * deliveries; the partial index serves the claim of due deliveries, the other the delivery log.
 */
export default /* sql */ `
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  club text NOT NULL,
  url text NOT NULL,
  events text,
  sealed_secret text NOT NULL,
  previous_sealed_secret text,
  previous_secret_until int8,
  enabled boolean NOT NULL,
  consecutive_give_ups int4 NOT NULL,
  created_at int8 NOT NULL
);
CREATE INDEX webhook_endpoints_by_club ON webhook_endpoints(club, created_at, id);
CREATE TABLE webhook_deliveries (
  id int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  club text NOT NULL,
  event_id int8 NOT NULL,
  payload text NOT NULL,
  attempts int4 NOT NULL DEFAULT 0,
  next_attempt_at int8 NOT NULL,
  lease_until int8,
  delivered_at int8,
  given_up_at int8,
  last_status int4,
  last_error text,
  created_at int8 NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries(endpoint_id, next_attempt_at, id) WHERE delivered_at IS NULL AND given_up_at IS NULL;
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(endpoint_id, lease_until) WHERE delivered_at IS NULL AND given_up_at IS NULL AND lease_until IS NOT NULL;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id, id);
`
