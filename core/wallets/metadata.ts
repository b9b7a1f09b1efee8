import * as v from 'valibot'
import { requireClub } from '../clubs/require.ts'
import type { IssuerContext } from '../context.ts'
import { OB3_CONTEXT } from '../credentials/build-ob3.ts'
import { credentialIssuerId, walletEndpoints } from './urls.ts'

/** The stored OB 3.0 VC-JWT (docs/decisions/0014-signed-credential.md). */
export const CREDENTIAL_CONFIGURATION_ID = 'OpenBadgeCredential_jwt_vc_json'

/** The same credential as its JSON-LD form with a Data Integrity proof (docs/data-integrity.md), for the Learner Credential Wallet. */
export const LDP_VC_CONFIGURATION_ID = 'OpenBadgeCredential_ldp_vc'

const CREDENTIAL_TYPE = ['VerifiableCredential', 'OpenBadgeCredential']

export const PRE_AUTHORIZED_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code'

const displaySchema = v.array(v.object({ name: v.string(), locale: v.string(), description: v.optional(v.string()) }))

const credentialMetadataSchema = v.object({
  display: displaySchema,
  claims: v.array(v.object({ path: v.array(v.string()), mandatory: v.optional(v.boolean()), display: displaySchema })),
})

/** Credential issuer metadata (OID4VCI 1.0 §12.2.4): the members this issuer sends. */
export const credentialIssuerMetadataSchema = v.object({
  credential_issuer: v.string(),
  credential_endpoint: v.string(),
  nonce_endpoint: v.string(),
  display: displaySchema,
  credential_configurations_supported: v.record(
    v.string(),
    v.variant('format', [
      v.object({
        format: v.literal('jwt_vc_json'),
        credential_signing_alg_values_supported: v.array(v.string()),
        credential_definition: v.object({ type: v.array(v.string()) }),
        credential_metadata: credentialMetadataSchema,
      }),
      v.object({
        format: v.literal('ldp_vc'),
        credential_signing_alg_values_supported: v.array(v.string()),
        credential_definition: v.object({ '@context': v.array(v.string()), type: v.array(v.string()) }),
        credential_metadata: credentialMetadataSchema,
      }),
    ]),
  ),
})
export type CredentialIssuerMetadata = v.InferOutput<typeof credentialIssuerMetadataSchema>

/** Authorization server metadata (RFC 8414 §2): the members this issuer sends. */
export const authorizationServerMetadataSchema = v.object({
  issuer: v.string(),
  token_endpoint: v.string(),
  grant_types_supported: v.array(v.string()),
  token_endpoint_auth_methods_supported: v.array(v.string()),
  'pre-authorized_grant_anonymous_access_supported': v.boolean(),
})
export type AuthorizationServerMetadata = v.InferOutput<typeof authorizationServerMetadataSchema>

/** A display name in Korean and English (the share page's two languages). */
const bilingual = (ko: string, en: string) => [
  { name: ko, locale: 'ko' },
  { name: en, locale: 'en' },
]

/**
 * The club's credential issuer metadata (OID4VCI 1.0 §12.2.4). No `authorization_servers`: the credential
 * issuer is its own authorization server. No `cryptographic_binding_methods_supported` and no
 * `proof_types_supported`: the stored credential binds no holder key, so none is promised (§14.2 "bearer
 * credentials"), and wallets send no proof. The nonce endpoint is named anyway for wallets that always
 * ask for one. Two configurations of the one credential: its JWT (`jwt_vc_json`, ES256) and its JSON-LD
 * form (`ldp_vc`, OID4VCI 1.0 Appendix A.1.2: `credential_definition` with the credential's `@context`
 * URLs and `type`, the Data Integrity cryptosuite as the signing algorithm).
 */
export async function credentialIssuerMetadata(ctx: IssuerContext, club: string): Promise<CredentialIssuerMetadata> {
  const { name } = await requireClub(ctx.storage, club)
  const endpoints = walletEndpoints(ctx.config, club)
  return {
    credential_issuer: credentialIssuerId(ctx.config, club),
    credential_endpoint: endpoints.credential,
    nonce_endpoint: endpoints.nonce,
    display: bilingual(name, name),
    credential_configurations_supported: {
      [CREDENTIAL_CONFIGURATION_ID]: {
        format: 'jwt_vc_json' as const,
        credential_signing_alg_values_supported: ['ES256'],
        credential_definition: { type: CREDENTIAL_TYPE },
        credential_metadata: credentialMetadata(name),
      },
      [LDP_VC_CONFIGURATION_ID]: {
        format: 'ldp_vc' as const,
        credential_signing_alg_values_supported: ['eddsa-rdfc-2022'],
        // The context URLs; clubcred's own terms are embedded in the credential, not named by a URL.
        credential_definition: { '@context': OB3_CONTEXT.flatMap((context) => (typeof context === 'string' ? [context] : [])), type: CREDENTIAL_TYPE },
        credential_metadata: credentialMetadata(name),
      },
    },
  }
}

/** What a wallet shows of the credential, the same for both configurations. */
function credentialMetadata(name: string): v.InferOutput<typeof credentialMetadataSchema> {
  return {
    display: [
      { name: '오픈 배지', locale: 'ko', description: `${name}에서 발급한 Open Badges 3.0 자격증명` },
      { name: 'Open Badge', locale: 'en', description: `An Open Badges 3.0 credential issued by ${name}` },
    ],
    // Paths into the credential (the JWT's `vc`), in the order a wallet should show them.
    claims: [
      { path: ['credentialSubject', 'achievement', 'name'], mandatory: true, display: bilingual('이름', 'Name') },
      { path: ['credentialSubject', 'achievement', 'description'], mandatory: true, display: bilingual('설명', 'Description') },
      { path: ['credentialSubject', 'achievement', 'criteria', 'narrative'], mandatory: true, display: bilingual('취득 기준', 'Criteria') },
      { path: ['issuer', 'name'], mandatory: true, display: bilingual('발급 기관', 'Issuer') },
      { path: ['validFrom'], mandatory: true, display: bilingual('발급일', 'Issued') },
      { path: ['validUntil'], display: bilingual('만료일', 'Expires') },
    ],
  }
}

/**
 * The club's authorization server metadata (RFC 8414 §2), at the well-known address of the same
 * identifier: a public client (no authentication) with the pre-authorized code grant only, so no
 * authorization endpoint and no `response_types_supported` (OID4VCI 1.0 §12.3 allows leaving it out).
 */
export async function authorizationServerMetadata(ctx: IssuerContext, club: string): Promise<AuthorizationServerMetadata> {
  await requireClub(ctx.storage, club)
  return {
    issuer: credentialIssuerId(ctx.config, club),
    token_endpoint: walletEndpoints(ctx.config, club).token,
    grant_types_supported: [PRE_AUTHORIZED_CODE_GRANT],
    token_endpoint_auth_methods_supported: ['none'],
    'pre-authorized_grant_anonymous_access_supported': true,
  }
}
