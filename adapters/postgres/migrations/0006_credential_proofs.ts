/**
 * The Data Integrity proof of each credential (docs/data-integrity.md § Storage): its JSON, `NULL` while
 * it is still to be made. The credentials stored before this migration get `''`, "none": they were
 * signed before clubcred made proofs and stay as they are. Added with a default, which PostgreSQL
 * keeps in the catalogue without rewriting the table, then dropped, so new rows start `NULL`. The
 * partial index holds only the credentials whose proof is still to be made, oldest first (the ids are
 * time-ordered).
 *
 * The proof round's lease (docs/data-integrity.md § Signing): `proof_lease_until`, the last instant a
 * worker holds the credential's proof (`NULL`: never claimed), `proof_attempts` and `proof_error`, the
 * failures so far, as a signing job keeps them. A constant default does not rewrite the table either.
 */
export default /* sql */ `
ALTER TABLE credentials ADD COLUMN proof text DEFAULT '';
ALTER TABLE credentials ALTER COLUMN proof DROP DEFAULT;
ALTER TABLE credentials ADD COLUMN proof_lease_until bigint;
ALTER TABLE credentials ADD COLUMN proof_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE credentials ADD COLUMN proof_error text;
CREATE INDEX credentials_unproven ON credentials (id) WHERE proof IS NULL;
`
