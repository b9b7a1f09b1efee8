/**
 * clubcred's own JSON-LD terms, embedded as the last `@context` entry of every credential (OB 3.0 allows
 * entries after the first two). The 1EdTech validator expands the whole credential in JSON-LD before
 * anything else and refuses a term no context defines; `x-partnerOrganizations` (docs/api.md §2.3:
 * the co-issuers, representative first) and its members `role` and `isVerified` are clubcred's. `id`,
 * `name` and `url` of a co-issuer keep the meanings the OB 3.0 context gives them.
 *
 * Embedded rather than served at a URL (docs/decisions/0015-strict-json-ld.md): the signature covers it,
 * so its meaning cannot change after signing; a verifier needs no network and no allow-list entry for
 * it; and no deployment has to keep a context URL alive for as long as its credentials live.
 *
 * The IRIs are fixed for every deployment (they name clubcred's vocabulary, not a club), and are never
 * renamed: a credential signed today must mean the same thing to a verifier in ten years.
 */
export const CLUBCRED_VOCABULARY = 'https://clubcred.dev/ns/ob#'

export const CLUBCRED_CONTEXT = {
  '@protected': true,
  'x-partnerOrganizations': {
    '@id': `${CLUBCRED_VOCABULARY}partnerOrganizations`,
    '@container': '@set',
    '@context': {
      '@protected': true,
      role: `${CLUBCRED_VOCABULARY}role`,
      isVerified: `${CLUBCRED_VOCABULARY}isVerified`,
    },
  },
} as const
