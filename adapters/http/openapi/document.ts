import { toJsonSchema } from '@valibot/to-json-schema'
import { recipientSchema } from '../../../core/issuances/schema.ts'
import { SCOPE_NAMES, toScopeString } from '../../../core/scopes.ts'
import { atBase, surfaceBases, type Operation } from '../operation.ts'
import type { IssuerConfig } from '../../../core/config.ts'

type Schema = Parameters<typeof toJsonSchema>[0]

/**
 * Checks and transforms (trimming, Latin script, de-duplication) have no JSON Schema form: the document
 * shows the shape, and problem documents name the rules. `jsonObject()` members (an object check piped
 * into a strict object) are shown as their object.
 */
function jsonSchema(schema: Schema): Record<string, unknown> {
  const { $schema: _, ...converted } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: 'input',
    errorMode: 'ignore',
    overrideSchema: ({ valibotSchema }) => {
      const objectSchema = (valibotSchema as { objectSchema?: Schema }).objectSchema
      return objectSchema ? jsonSchema(objectSchema) : undefined
    },
  }) as Record<string, unknown>
  return converted
}

/**
 * The OpenAPI 3.1 document, generated from the operation table: paths at the configured bases, request
 * bodies from the valibot schemas core validates with, and each club operation's scope as the `oauth2`
 * requirement the router enforces.
 */
export function createOpenApiDocument(config: IssuerConfig, operations: readonly Operation[]) {
  const bases = surfaceBases(config.urls)
  const paths: Record<string, Record<string, unknown>> = {}
  for (const operation of operations) {
    const { method } = operation
    const path = atBase(operation.path, bases)
    const parameters = [
      ...[...path.matchAll(/\{(\w+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...(operation.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
      ...(operation.idempotent ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } }] : []),
    ]
    paths[path] ??= {}
    paths[path]![method.toLowerCase()] = {
      summary: operation.summary,
      tags: [operation.tag],
      operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      security: securityOf(operation),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(operation.body
        ? {
            requestBody: {
              required: !operation.bodyOptional,
              ...(operation.bodyNote ? { description: operation.bodyNote } : {}),
              content: { [operation.bodyType ?? 'application/json']: { schema: jsonSchema(operation.body) } },
            },
          }
        : {}),
      responses: {
        [String(operation.status ?? 200)]: { description: 'Success', headers: REQUEST_ID_HEADERS },
        default: {
          description: 'Error',
          headers: REQUEST_ID_HEADERS,
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'clubcred', version: '0.1.0', description: 'Open Badges 3.0 issuing service: club API, public verification, v1 and legacy surfaces.' },
    servers: [{ url: new URL(config.urls.base).origin }],
    paths,
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: 'Access tokens of the client credentials grant (interface-spec §4.1); each club operation names the one scope it needs.',
          flows: { clientCredentials: { tokenUrl: `${config.urls.auth}/token`, scopes: scopeDescriptions(operations) } },
        },
        clientBasic: { type: 'http', scheme: 'basic' },
        legacyApiKey: { type: 'http', scheme: 'bearer', description: 'A legacy API key (`apikey create`), with or without the Bearer scheme' },
      },
      headers: {
        RequestId: {
          description:
            'The id of the request (docs/logs.md), as in the server log and a problem document: the X-Request-Id the client sent when it was 1 to 128 of [A-Za-z0-9._-], else a new one.',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
        },
      },
      schemas: {
        Recipient: jsonSchema(recipientSchema),
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code', 'requestId'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string' },
            requestId: { type: 'string', description: 'The id of the request, as in its X-Request-Id answer header and the server log.' },
            errors: { type: 'array', items: { type: 'object', properties: { message: { type: 'string' }, path: { type: 'string' } } } },
          },
        },
      },
    },
  }
}

/** Every answer names its request (adapters/http/request-id.ts). */
const REQUEST_ID_HEADERS = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } }

/** How an operation authenticates: its scope as `svc:openapi:<scope>` (spec §5 item 4), or its own scheme. */
function securityOf(operation: Operation): Record<string, string[]>[] {
  if (operation.scope !== undefined) return [{ oauth2: [toScopeString(operation.scope)] }]
  if (operation.auth === 'client') return [{ clientBasic: [] }]
  if (operation.auth === 'api-key') return [{ legacyApiKey: [] }]
  return []
}

/** All ten scopes of interface-spec §2.2, each described by the operations that need it. */
function scopeDescriptions(operations: readonly Operation[]): Record<string, string> {
  return Object.fromEntries(
    SCOPE_NAMES.map((scope) => {
      const summaries = operations.filter((operation) => operation.scope === scope).map((operation) => operation.summary)
      const description =
        summaries.length > 0 ? `Allows: ${summaries.join('; ')}.` : 'Listed by interface-spec §2.2; no operation of this service needs it yet.'
      return [toScopeString(scope), description]
    }),
  )
}
