import { toJsonSchema } from '@valibot/to-json-schema'
import { COMPONENT_SCHEMAS, OPERATIONS } from './operations.ts'
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
 * The OpenAPI 3.1 document, generated: operations from `OPERATIONS`, request bodies from the valibot
 * schemas core validates with, paths at the configured bases.
 */
export function createOpenApiDocument(config: IssuerConfig) {
  const bases: Record<string, string> = {
    auth: new URL(config.urls.auth).pathname.replace(/\/+$/, ''),
    base: new URL(config.urls.base).pathname.replace(/\/+$/, ''),
    public: new URL(config.urls.public).pathname.replace(/\/+$/, ''),
    legacy: new URL(config.urls.legacyBase).pathname.replace(/\/+$/, ''),
  }
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [key, doc] of Object.entries(OPERATIONS)) {
    const [method, template] = key.split(' ') as [string, string]
    const path = template.replace(/^\{(auth|base|public|legacy)\}/, (_, name: string) => bases[name]!)
    const parameters = [
      ...[...path.matchAll(/\{(\w+)\}/g)].map((match) => ({ name: match[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...(doc.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
      ...(doc.idempotent ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } }] : []),
    ]
    const security =
      doc.auth === 'none' ? [] : doc.auth === 'basic' ? [{ clientBasic: [] }] : doc.auth === 'api-key' ? [{ legacyApiKey: [] }] : [{ oauth2: doc.scope ? [`svc:openapi:${doc.scope}`] : [] }]
    paths[path] ??= {}
    paths[path]![method.toLowerCase()] = {
      summary: doc.summary,
      tags: [doc.tag],
      operationId: `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      security,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(doc.body
        ? {
            requestBody: {
              required: !doc.summary.startsWith('Revoke'),
              ...(doc.bodyNote ? { description: doc.bodyNote } : {}),
              content: { [doc.bodyType ?? 'application/json']: { schema: jsonSchema(doc.body) } },
            },
          }
        : {}),
      responses: {
        [String(doc.status ?? 200)]: { description: 'Success' },
        default: { description: 'Error', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
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
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${config.urls.auth}/token`, scopes: {} } } },
        clientBasic: { type: 'http', scheme: 'basic' },
        legacyApiKey: { type: 'http', scheme: 'bearer', description: 'A legacy API key (`apikey create`), with or without the Bearer scheme' },
      },
      schemas: {
        ...Object.fromEntries(Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [name, jsonSchema(schema)])),
        Problem: {
          type: 'object',
          required: ['type', 'title', 'status', 'code'],
          properties: {
            type: { type: 'string' },
            title: { type: 'string' },
            status: { type: 'integer' },
            detail: { type: 'string' },
            code: { type: 'string' },
            errors: { type: 'array', items: { type: 'object', properties: { message: { type: 'string' }, path: { type: 'string' } } } },
          },
        },
      },
    },
  }
}
