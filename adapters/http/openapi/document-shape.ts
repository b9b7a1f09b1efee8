import * as v from 'valibot'

/** The OpenAPI document itself, as `GET /openapi.json` answers it: its top members; the rest is OpenAPI 3.1's. */
export const openApiDocumentSchema = v.looseObject({
  openapi: v.string(),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.unknown()),
})
