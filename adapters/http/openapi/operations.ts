import * as v from 'valibot'
import type { GenericSchema } from 'valibot'
import { templateCreateSchema, templatePatchSchema } from '../../../core/achievements/schema.ts'
import { v1FormCreateSchema, v1FormPatchSchema } from '../../../core/achievements/v1-form.ts'
import { legacyFormSchema } from '../../../core/achievements/legacy-form.ts'
import { designCreateSchema, designPatchSchema } from '../../../core/designs/schema.ts'
import { issueRequestSchema, recipientSchema, v1IssueRequestSchema } from '../../../core/issuances/schema.ts'
import { revokeRequestSchema } from '../../../core/issuances/revoke.ts'
import type { ScopeName } from '../../../core/scopes.ts'

/** What the OpenAPI document says of one operation; bodies are the valibot schemas the core validates with. */
export interface OperationDoc {
  summary: string
  tag: 'oauth' | 'clubs' | 'achievements' | 'designs' | 'issuances' | 'events' | 'verification' | 'v1' | 'legacy' | 'meta'
  /** Scope the bearer token needs; `null` for operations without one. */
  scope: ScopeName | null
  /** `api-key` for legacy form creation, `basic` for the token endpoint, `none` for the public surface. */
  auth?: 'bearer' | 'api-key' | 'basic' | 'none'
  body?: GenericSchema
  /** The media type of `body`; JSON unless said otherwise. */
  bodyType?: 'application/json' | 'application/x-www-form-urlencoded'
  /** Extra schemas referenced by a body (e.g. each recipient entry). */
  bodyNote?: string
  query?: string[]
  idempotent?: boolean
  status?: number
}

/**
 * One entry per route the HTTP face serves, keyed `METHOD /path` with `{param}` placeholders relative
 * to the surface's base. A test checks that this table and the router's routes are the same set.
 */
/** The token request's form (RFC 6749 §4.4.2); routes/oauth.ts reads these two parameters. */
const tokenForm = v.object({ grant_type: v.literal('client_credentials'), scope: v.optional(v.string()) })

export const OPERATIONS: Record<string, OperationDoc> = {
  'POST {auth}/token': {
    summary: 'Get an access token (client credentials grant)',
    tag: 'oauth',
    scope: null,
    auth: 'basic',
    body: tokenForm,
    bodyType: 'application/x-www-form-urlencoded',
  },
  'GET {base}/v2/clubs/{clubDomain}/': { summary: 'Read the club root', tag: 'clubs', scope: 'clubs:read' },
  'GET {base}/v2/clubs/{clubDomain}/achievements': { summary: 'List templates', tag: 'achievements', scope: 'achievements:read', query: ['limit', 'cursor'] },
  'POST {base}/v2/clubs/{clubDomain}/achievements': { summary: 'Create a template', tag: 'achievements', scope: 'achievements:manage', body: templateCreateSchema, status: 201 },
  'GET {base}/v2/clubs/{clubDomain}/achievements/{id}': { summary: 'Read a template', tag: 'achievements', scope: 'achievements:read' },
  'PATCH {base}/v2/clubs/{clubDomain}/achievements/{id}': { summary: 'Patch a template', tag: 'achievements', scope: 'achievements:manage', body: templatePatchSchema },
  'POST {base}/v2/clubs/{clubDomain}/issuances': {
    summary: 'Issue a template to recipients (batch)',
    tag: 'issuances',
    scope: 'issuance:write',
    body: issueRequestSchema,
    bodyNote: 'Each recipients[] entry is checked on its own against the Recipient schema; failures are batch items, not request errors.',
    idempotent: true,
  },
  'POST {base}/v2/clubs/{clubDomain}/issuances/{id}/revoke': { summary: 'Revoke an issuance', tag: 'issuances', scope: 'issuance:revoke', body: revokeRequestSchema, idempotent: true },
  'GET {base}/v2/clubs/{clubDomain}/issuances': { summary: 'List issuances', tag: 'issuances', scope: 'issuance:read', query: ['limit', 'cursor', 'achievementId'] },
  'GET {base}/v2/clubs/{clubDomain}/issuances/{id}': { summary: 'Read an issuance', tag: 'issuances', scope: 'issuance:read' },
  'GET {base}/v2/clubs/{clubDomain}/issuances/{id}/credential': { summary: 'Read the signed credential', tag: 'issuances', scope: 'issuance:read' },
  'GET {base}/v2/clubs/{clubDomain}/issuances/{id}/file': { summary: 'Download the certificate or baked badge', tag: 'issuances', scope: 'issuance:read', query: ['format'] },
  'GET {base}/v2/clubs/{clubDomain}/events': { summary: 'Read the event feed', tag: 'events', scope: 'events:read', query: ['limit', 'cursor'] },
  'GET {base}/v2/clubs/{clubDomain}/designs': { summary: 'List designs', tag: 'designs', scope: 'designs:read', query: ['limit', 'cursor'] },
  'POST {base}/v2/clubs/{clubDomain}/designs': { summary: 'Create a design', tag: 'designs', scope: 'designs:manage', body: designCreateSchema, status: 201 },
  'GET {base}/v2/clubs/{clubDomain}/designs/{id}': { summary: 'Read a design', tag: 'designs', scope: 'designs:read' },
  'PATCH {base}/v2/clubs/{clubDomain}/designs/{id}': { summary: 'Patch a design', tag: 'designs', scope: 'designs:manage', body: designPatchSchema },
  'GET {public}/open-badges/v3/achievements/{issuanceId}/verify': { summary: 'Verify a credential (verdict)', tag: 'verification', scope: null, auth: 'none' },
  'GET {public}/open-badges/v3/credentials/{credentialId}': { summary: 'The signed JWT (text/plain)', tag: 'verification', scope: null, auth: 'none' },
  'GET {public}/open-badges/v3/issuers/{domain}/did.json': { summary: 'The club DID document (did:web)', tag: 'verification', scope: null, auth: 'none' },
  'GET {public}/open-badges/v3/issuers/{domain}/status-lists/revocation': { summary: "The club's first revocation list (Bitstring Status List VC-JWT)", tag: 'verification', scope: null, auth: 'none' },
  'GET {public}/open-badges/v3/issuers/{domain}/status-lists/revocation/{listId}': { summary: 'A later revocation list of the club', tag: 'verification', scope: null, auth: 'none' },
  'GET {public}/open-badges/v3/images/{hash}': { summary: 'An image by content hash (badge images, logos)', tag: 'verification', scope: null, auth: 'none' },
  'GET {public}/skills/{tag}': { summary: 'The skill a tag names (alignment target)', tag: 'verification', scope: null, auth: 'none' },
  'GET {base}/v1/forms/{id}': { summary: 'Read a form (v1)', tag: 'v1', scope: 'achievements:read' },
  'POST {base}/v1/forms': { summary: 'Create a form (v1)', tag: 'v1', scope: 'achievements:manage', body: v1FormCreateSchema, status: 201 },
  'PATCH {base}/v1/forms/{id}': { summary: 'Patch a form (v1)', tag: 'v1', scope: 'achievements:manage', body: v1FormPatchSchema },
  'POST {base}/v1/achievements': {
    summary: 'Bulk issue (v1)',
    tag: 'v1',
    scope: 'issuance:write',
    body: v1IssueRequestSchema,
    bodyNote: 'Each recipients[] entry is checked on its own against the Recipient schema; failures are failed[] items, not request errors.',
    idempotent: true,
  },
  'GET {base}/v1/achievements/{id}': { summary: 'Read an issuance (v1)', tag: 'v1', scope: 'issuance:read' },
  'POST {legacy}/open-api/achievements/forms': { summary: 'Create a form (legacy)', tag: 'legacy', scope: null, auth: 'api-key', body: legacyFormSchema, status: 201 },
  'GET {base}/openapi.json': { summary: 'This document', tag: 'meta', scope: null, auth: 'none' },
}

/** Extra named schemas of the document. */
export const COMPONENT_SCHEMAS: Record<string, GenericSchema> = { Recipient: recipientSchema }
