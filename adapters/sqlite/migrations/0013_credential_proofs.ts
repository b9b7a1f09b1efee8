/**
 * The Data Integrity proof of each credential (docs/data-integrity.md § Storage): its JSON, `NULL` while
 * it is still to be made. The credentials stored before this migration get `''`, "none": they were
 * signed before clubcred made proofs and stay as they are. The column keeps that default (SQLite cannot
 * drop one), so the adapter names `proof` in every insert. The partial index holds only the credentials
 * whose proof is still to be made, in the order the proof round takes them.
 */
export default /* sql */ `
ALTER TABLE credentials ADD COLUMN proof TEXT DEFAULT '';
CREATE INDEX credentials_unproven ON credentials(issuance_seq) WHERE proof IS NULL;
`
