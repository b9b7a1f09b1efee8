import type { Call } from '../operation.ts'

/** `GET {base_url}/openapi.json`: the document of every operation served (`openapi/document.ts`). */
export function serveOpenApi({ openApiJson }: Call): Response {
  return new Response(openApiJson(), { headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } })
}
