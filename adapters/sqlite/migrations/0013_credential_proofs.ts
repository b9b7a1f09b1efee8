/**
 * The Data Integrity proof of each credential (docs/data-integrity.md § Storage): its JSON, `NULL` while
 * it is still to be made. The credentials stored before this migration get `''`, "none": they were
 * signed before clubcred made proofs and stay as they are. The column keeps that default (SQLite cannot
 * drop one), so the adapter names `proof` in every insert. The partial index holds only the credentials
 * whose proof is still to be made, in the order the proof round takes them.
 *
 * The proof round's lease (docs/data-integrity.md § Signing): `proof_lease_until`, the last instant a
 * worker holds the credential's proof (`NULL`: never claimed), `proof_attempts` and `proof_error`, the
 * failures so far, as a signing job keeps them.
 */
export default /* sql */ `
ALTER TABLE credentials ADD COLUMN proof TEXT DEFAULT '';
ALTER TABLE credentials ADD COLUMN proof_lease_until INTEGER;
ALTER TABLE credentials ADD COLUMN proof_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE credentials ADD COLUMN proof_error TEXT;
CREATE INDEX credentials_unproven ON credentials(issuance_seq) WHERE proof IS NULL;
`
