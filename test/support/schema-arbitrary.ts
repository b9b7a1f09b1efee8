/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document: values that mostly fit the
 * schema (so requests get past the shape and reach the rules) with odd strings and numbers mixed in.
 */
import fc from 'fast-check'
import type { Json } from './json.ts'

export type JsonSchema = Record<string, Json>

/** Strings that have broken parsers before: empty, blank, controls, lone surrogates, long, numeric, markup. */
export const oddString = fc.constantFrom(
  '',
  ' ',
  '\t\n',
  'a\u0000b',
  'a\r\nb',
  '\u0085',
  '\ud800',
  'x\udfff',
  '😀',
  '체스',
  'x'.repeat(300),
  '0',
  '-1',
  '1e400',
  'null',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  'javascript:alert(1)',
  '__proto__',
  'constructor',
)

const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: oddString },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
)

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  email: fc.constantFrom('kim@example.com', 'lee@example.org', 'KIM@EXAMPLE.COM', 'not-an-email', 'a@b'),
  'date-time': fc.constantFrom('2099-01-01T00:00:00Z', '2000-01-01T00:00:00Z', '2024-02-30T00:00:00Z', '2099-12-31T23:59:59.999+09:00', 'tomorrow'),
  uri: fc.constantFrom('https://example.com/', 'http://example.com/a?b#c', 'ftp://example.com/', 'not a url'),
}

/** An arbitrary for `schema`; `$ref`s resolve in `document`; `overrides` replace members by name (e.g. `recipients` items). */
export function fromSchema(schema: JsonSchema | undefined, document: JsonSchema, overrides: Record<string, JsonSchema> = {}, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || Object.keys(schema).length === 0 || depth > 5) return fc.jsonValue({ maxDepth: 2 })
  if (schema.$ref) {
    const target = String(schema.$ref)
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: Json, key) => node?.[key], document)
    return fromSchema(target, document, overrides, depth + 1)
  }
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives) return fc.oneof(...alternatives.map((item: JsonSchema) => fromSchema(item, document, overrides, depth + 1)))
  if (schema.const !== undefined) return fc.constant(schema.const)
  if (schema.enum) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: anyString })
  switch (schema.type) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {}) as [string, JsonSchema][]
      const model = Object.fromEntries(properties.map(([name, property]) => [name, fromSchema(overrides[name] ?? property, document, overrides, depth + 1)]))
      const record = fc.record(model, { requiredKeys: (schema.required ?? []).filter((name: string) => name in model) })
      return fc.oneof(
        { weight: 8, arbitrary: record },
        // A member the schema does not know, and an object missing its required members.
        {
          weight: 1,
          arbitrary: fc.tuple(record, anyString, fc.jsonValue({ maxDepth: 1 })).map(([value, key, extra]) => ({ ...(value as object), [key]: extra })),
        },
        { weight: 1, arbitrary: fc.record(model, { requiredKeys: [] }) },
      )
    }
    case 'array': {
      const items = fromSchema(schema.items, document, overrides, depth + 1)
      return fc.array(items, { minLength: 0, maxLength: Math.min(schema.maxItems ?? 4, 4) })
    }
    case 'string': {
      const fitting =
        schema.format && FORMATS[schema.format]
          ? FORMATS[schema.format]!
          : schema.pattern === '^#[0-9a-fA-F]{6}$'
            ? fc.constantFrom('#112233', '#ABCDEF', '#12345')
            : fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) })
      return fc.oneof({ weight: 4, arbitrary: fitting }, { weight: 2, arbitrary: anyString })
    }
    case 'integer':
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: schema.minimum ?? -5, max: Math.min(schema.maximum ?? 5, 1e9) }) },
        { weight: 1, arbitrary: fc.constantFrom(0, -1, 2 ** 53, 1.5, Number.MAX_VALUE, 1e-9) },
        { weight: 1, arbitrary: anyString },
      )
    case 'number':
      return fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer())
    case 'boolean':
      return fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom('true', 0, null) })
    case 'null':
      return fc.constant(null)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}
