/**
 * The multipart/form-data body of a request (a file upload), read to at most `maxBytes` whatever its
 * `Content-Length` says or whether it has one: `'too-large'` past that, `'malformed'` when it does not
 * parse as the multipart body its `Content-Type` announces. `Request.formData()` on Node and Deno.
 */
export async function multipartOf(request: Request, maxBytes: number): Promise<FormData | 'too-large' | 'malformed'> {
  const type = request.headers.get('content-type') ?? ''
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return 'too-large'
  const parts: Uint8Array[] = []
  let size = 0
  if (request.body) {
    const reader = request.body.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > maxBytes) {
        await reader.cancel()
        return 'too-large'
      }
      parts.push(value)
    }
  }
  const body = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    body.set(part, at)
    at += part.byteLength
  }
  try {
    return await new Response(body, { headers: { 'content-type': type } }).formData()
  } catch {
    return 'malformed'
  }
}
