import { ProblemError } from '../../../core/errors.ts'
import { readBody } from '../body.ts'

/** A file of a multipart form, read whole (the form's size limit bounds it). */
export interface UploadedFile {
  /** The name the browser sent (for messages only: never a path on this server). */
  filename: string
  /** The part's Content-Type as sent, lower case; `''` when absent. */
  mediaType: string
  bytes: Uint8Array
}

/** A form as posted: its text fields, and a multipart form's files by field name (empty for a url-encoded form). */
export interface PostedForm {
  form: URLSearchParams
  files: Map<string, UploadedFile>
}

/**
 * Reads a `multipart/form-data` body of at most `maxBytes` (counted as it arrives): text fields into
 * `form`, files into `files`. A file input left empty (a part with no file name and no bytes) is no file.
 * `too-large` past the limit, `malformed` when it does not parse as multipart.
 */
export async function readMultipartForm(request: Request, maxBytes: number): Promise<PostedForm | 'too-large' | 'malformed'> {
  let bytes: Uint8Array
  try {
    bytes = await readBody(request, maxBytes)
  } catch (error) {
    if (error instanceof ProblemError && error.code === 'payload-too-large') return 'too-large'
    throw error
  }
  let parsed: FormData
  try {
    // The platform's own multipart parser (Node's undici, Deno's), over bytes already bounded.
    parsed = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': request.headers.get('content-type') ?? '' } }).formData()
  } catch {
    return 'malformed'
  }
  const posted: PostedForm = { form: new URLSearchParams(), files: new Map() }
  for (const [name, value] of parsed) {
    if (typeof value === 'string') posted.form.append(name, value)
    else if (value.name !== '' || value.size > 0) {
      posted.files.set(name, { filename: value.name, mediaType: value.type.toLowerCase(), bytes: new Uint8Array(await value.arrayBuffer()) })
    }
  }
  return posted
}
