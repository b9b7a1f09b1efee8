import type { CredentialRecord } from '../issuances/issuance.ts'

/*
 * STAND-IN for the contract the proof-storage slice puts here (docs/learner-credential-wallet.md § The JSON-LD form):
 * the types and `jsonLdFormOf` are that contract, exactly; the body is a placeholder until that slice is
 * merged, and its merge replaces this whole file. Until then no stored credential has a proof, so every
 * record is `none` unless a test registered its form with `registerJsonLdFormForTests`.
 */
export type JsonLdForm = { state: 'ready'; credential: Record<string, unknown> } | { state: 'pending' } | { state: 'none' }

const registered = new Map<string, JsonLdForm>()

/** Placeholder only (see above): the form `jsonLdFormOf` answers for the credential `id`. */
export function registerJsonLdFormForTests(id: string, form: JsonLdForm): void {
  registered.set(id, form)
}

/** 'pending': the proof is not made yet; 'none': signed before Data Integrity proofs existed (no JSON-LD form). */
export function jsonLdFormOf(record: CredentialRecord): JsonLdForm {
  return registered.get(record.id) ?? { state: 'none' }
}
