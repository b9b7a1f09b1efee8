import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema'
import { recipientSchema } from '../../../core/issuances/schema.ts'
import { SCOPE_NAMES, toScopeString } from '../../../core/scopes.ts'
import { atBase, surfaceBases } from '../surface-bases.ts'
import type { Operation } from '../operation.ts'
import { RESPONSE_COMPONENTS } from './components.ts'
import type { IssuerConfig } from '../../../core/config.ts'

type Schema = Parameters<typeof toJsonSchema>[0]

/**
 * Response shapes are plain objects, arrays and scalars: every one has a JSON Schema form, so a shape
 * that had none would fail here (`throw`) rather than be left out. The shapes `RESPONSE_COMPONENTS`
 * names are `$ref`s to `components.schemas` wherever they appear.
 */
const RESPONSE_CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'output',
  errorMode: 'throw',
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
}

function responseSchema(schema: Schema): Record<string, unknown> {
  return withoutDraftMembers(toJsonSchema(schema, { ...RESPONSE_CONVERSION, definitions: RESPONSE_COMPONENTS }))
}

/** A schema inside the document: its dialect is the document's, and shared shapes are components, not `$defs`. */
function withoutDraftMembers(schema: object): Record<string, unknown> {
  const converted: Record<string, unknown> = { ...schema }
  delete converted.$schema
  delete converted.$defs
  return converted
}

/**
 * Checks and transforms (trimming, Latin script, de-duplication) have no JSON Schema form: the document
 * shows the shape, and problem documents name the rules. `jsonObject()` members (an object check piped
 * into a strict object) are shown as their object.
 */
function jsonSchema(schema: Schema): Record<string, unknown> {
  const converted = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode: 'input',
    errorMode: 'ignore',
    overrideSchema: ({ valibotSchema }) => {
      const objectSchema = (valibotSchema as { objectSchema?: Schema }).objectSchema
      return objectSchema ? jsonSchema(objectSchema) : undefined
    },
  })
  return withoutDraftMembers(converted)
}

/**
 * The OpenAPI 3.1 document, generated from the operation table: paths at the configured bases, request
 * bodies from the valibot schemas core validates with, response bodies from the valibot schemas core's
 * answers are typed by (`v.InferOutput`), and each club operation's scope as the `oauth2` requirement the
 * router enforces. Response objects are open (no `additionalProperties: false`): answers gain members
 * without a new version (docs/api.md §9), and a client ignores the members it does not know.
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
      responses: responsesOf(operation),
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
          description: 'Access tokens of the client credentials grant (docs/api.md §4.1); each club operation names the one scope it needs.',
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
        ...toJsonSchemaDefs(RESPONSE_COMPONENTS, RESPONSE_CONVERSION),
      },
    },
  }
}

/** Every answer names its request (adapters/http/request-id.ts). */
const REQUEST_ID_HEADERS = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } }

const ref = (name: keyof typeof RESPONSE_COMPONENTS) => ({ $ref: `#/components/schemas/${name}` })

/** The error statuses answered in an operation's own error shape; anything else is a problem document. */
const ERROR_SHAPES = {
  oauth: { statuses: ['400', '401', '429'], mediaType: 'application/json', schema: ref('OAuthError'), description: 'RFC 6749 §5.2 error' },
  credential: { statuses: ['400', '401'], mediaType: 'application/json', schema: ref('OAuthError'), description: 'OID4VCI 1.0 §8.3.1.2 error' },
  legacy: { statuses: ['400', '401', '404', '500'], mediaType: 'application/json', schema: ref('LegacyError'), description: 'Error (NestJS shape)' },
} as const

/** An operation's answers: its success by media type, its own error shape where it has one, else a problem document. */
function responsesOf(operation: Operation): Record<string, unknown> {
  const content = Object.fromEntries(
    Object.entries(operation.answer).map(([mediaType, schema]) => [mediaType, schema === null ? {} : { schema: responseSchema(schema) }]),
  )
  // A redirect has no body, only where it sends the client.
  const success =
    operation.status === 303
      ? { description: 'See Other', headers: { ...REQUEST_ID_HEADERS, Location: { schema: { type: 'string', format: 'uri' } } } }
      : { description: 'Success', headers: REQUEST_ID_HEADERS, content }
  const responses: Record<string, unknown> = { [String(operation.status ?? 200)]: success }
  if (operation.notFoundAnswers) responses['404'] = { ...success, description: 'No such credential: the verdict says so' }
  if (operation.conditional) responses['304'] = { description: 'Not modified: the If-None-Match named this version', headers: REQUEST_ID_HEADERS }
  if (operation.errorShape) {
    const shape = ERROR_SHAPES[operation.errorShape]
    for (const status of shape.statuses) {
      responses[status] = { description: shape.description, headers: REQUEST_ID_HEADERS, content: { [shape.mediaType]: { schema: shape.schema } } }
    }
  }
  responses.default = { description: 'Error', headers: REQUEST_ID_HEADERS, content: { 'application/problem+json': { schema: ref('Problem') } } }
  return responses
}

/** How an operation authenticates: its scope as `svc:openapi:<scope>` (docs/api.md §5 item 4), or its own scheme. */
function securityOf(operation: Operation): Record<string, string[]>[] {
  if (operation.scope !== undefined) return [{ oauth2: [toScopeString(operation.scope)] }]
  if (operation.auth === 'client') return [{ clientBasic: [] }]
  if (operation.auth === 'api-key') return [{ legacyApiKey: [] }]
  return []
}

/** All ten scopes of docs/api.md §2.2, each described by the operations that need it. */
function scopeDescriptions(operations: readonly Operation[]): Record<string, string> {
  return Object.fromEntries(
    SCOPE_NAMES.map((scope) => {
      const summaries = operations.filter((operation) => operation.scope === scope).map((operation) => operation.summary)
      const description = summaries.length > 0 ? `Allows: ${summaries.join('; ')}.` : 'Listed by docs/api.md §2.2; no operation of this service needs it yet.'
      return [toScopeString(scope), description]
    }),
  )
}
