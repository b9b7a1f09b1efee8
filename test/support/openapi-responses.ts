/**
 * Holds answers to the OpenAPI document's response declarations: the status must be declared (or fall
 * under `default`), the media type must be one the status lists, and a body with a schema must validate
 * against it with ajv (JSON Schema 2020-12, formats checked). Closed world: every object the document
 * lists `properties` of is checked as if it had `additionalProperties: false`, unless it says otherwise,
 * so a member the server sends and the document does not name fails. The published document stays open
 * (answers gain members without a new version); this is how the test keeps it complete.
 */
import assert from 'node:assert/strict'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

// ajv-formats is CommonJS: its default export is the plugin, or the plugin sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => void

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

/** A copy of `schema` in which every object schema with `properties` and no `additionalProperties` is closed. */
export function closed(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(closed)
  if (schema === null || typeof schema !== 'object') return schema
  const copy: JsonObject = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]))
  if (copy.properties !== undefined && copy.additionalProperties === undefined) copy.additionalProperties = false
  return copy
}

export interface Answer {
  status: number
  contentType: string | null
  /** The body as text (JSON is parsed for checking; other text is checked as a JSON string). */
  text: string
}

export interface ResponseChecker {
  /** Asserts that `answer` is what the document declares for `method path` (`path` as the document writes it). */
  check(method: string, path: string, answer: Answer): void
  /** The `METHOD path status` of every answer checked. */
  checked: Set<string>
}

/** A checker of answers against `document` (the served `/openapi.json`). */
export function responseChecker(served: object): ResponseChecker {
  const document = served as JsonObject
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  const components = (document.components as JsonObject).schemas as JsonObject
  const compiled = new Map<string, ValidateFunction>()
  const validatorFor = (key: string, schema: Json): ValidateFunction => {
    let validate = compiled.get(key)
    if (!validate) {
      // Component references become local `$defs`, so that each schema stands alone.
      const local = JSON.parse(JSON.stringify(closed(schema)).replaceAll('"#/components/schemas/', '"#/$defs/'))
      const defs = JSON.parse(JSON.stringify(closed(components)).replaceAll('"#/components/schemas/', '"#/$defs/'))
      validate = ajv.compile({ ...local, $defs: defs })
      compiled.set(key, validate)
    }
    return validate
  }
  const checked = new Set<string>()
  return {
    checked,
    check(method, path, answer) {
      const where = `${method} ${path} ${answer.status}`
      const operation = ((document.paths as JsonObject)[path] as JsonObject | undefined)?.[method.toLowerCase()] as JsonObject | undefined
      assert.ok(operation, `${method} ${path} is not in the document`)
      const responses = operation.responses as JsonObject
      const declared = (responses[String(answer.status)] ?? responses.default) as JsonObject | undefined
      assert.ok(declared, `${where}: the status is not declared`)
      const content = declared.content as JsonObject | undefined
      if (content === undefined) {
        assert.equal(answer.text, '', `${where}: the document declares no body, the server sent one`)
      } else {
        const mediaType = (answer.contentType ?? '').split(';')[0]!.trim()
        const entry = content[mediaType] as JsonObject | undefined
        assert.ok(entry, `${where}: ${mediaType} is not among the declared ${Object.keys(content).join(', ')}`)
        if (entry.schema !== undefined) {
          const body = isJson(mediaType) ? JSON.parse(answer.text) : answer.text
          const validate = validatorFor(`${where} ${mediaType}`, entry.schema)
          if (!validate(body)) {
            const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}`)
            assert.fail(`${where}: the body does not match the document:\n${errors.join('\n')}\n${answer.text.slice(0, 2000)}`)
          }
        }
      }
      checked.add(where)
    },
  }
}

/** A JSON media type: `…json` or VC 2.0's `application/vc` (a JSON-LD credential). */
export function isJson(mediaType: string): boolean {
  return /json/.test(mediaType) || mediaType === 'application/vc'
}
