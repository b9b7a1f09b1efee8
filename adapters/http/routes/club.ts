import { json } from '../responses.ts'
import type { ScopedCall } from '../operation.ts'

/** The club root, `GET {base_url}/v2/clubs/{clubDomain}/` (docs/api.md §4.2). */
export async function readClubRoot({ issuer, principal }: ScopedCall): Promise<Response> {
  return json({ data: await issuer.clubs.root(principal) })
}
