/**
 * Legacy API keys can be revoked: a revoked key stays in the table with the time of its
 * revocation, so that `apikey list` shows when a leaked key stopped working. The index serves the list.
 */
export default /* sql */ `
ALTER TABLE api_keys ADD COLUMN revoked_at INTEGER;
CREATE INDEX api_keys_by_club ON api_keys(club, created_at, id);
`
