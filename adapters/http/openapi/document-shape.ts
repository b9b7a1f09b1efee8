import * as v from 'valibot'

/** The OpenAPI document itself, as `GET /openapi.json` answers it: its top members; the rest is OpenAPI 3.1's (open on purpose). */
export const openApiDocumentSchema = v.objectWithRest(
  {
    openapi: v.string(),
    info: v.objectWithRest({ title: v.string(), version: v.string() }, v.unknown()),
    paths: v.record(v.string(), v.unknown()),
  },
  v.unknown(),
)
