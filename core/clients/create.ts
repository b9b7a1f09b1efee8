import { ProblemError, validationFailed } from '../errors.ts'
import { hashSecret } from '../crypto/secret-hash.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import { SCOPE_NAMES, isScopeName, type ScopeName } from '../scopes.ts'
import type { IssuerContext } from '../context.ts'

/** What the administrator sees once, at creation (docs/api.md §2.2). */
export interface ClientCredentials {
  client_id: string
  client_secret: string
  scopes: ScopeName[]
}

export interface CreateClientInput {
  club: string
  /** Defaults to every scope. */
  scopes?: string[]
}

export async function createClient(ctx: IssuerContext, input: CreateClientInput): Promise<ClientCredentials> {
  const requested = input.scopes ?? [...SCOPE_NAMES]
  const unknown = requested.filter((scope) => !isScopeName(scope))
  if (unknown.length > 0 || requested.length === 0) {
    throw validationFailed([{ message: 'unknown-scope', path: 'scopes' }], `Unknown scopes: ${unknown.join(' ') || '(none given)'}.`)
  }
  const scopes = SCOPE_NAMES.filter((scope) => requested.includes(scope))
  const id = newClientId(ctx)
  const secret = newSecret(ctx, 'ccs_')
  const now = ctx.clock.now()
  const secretHash = await hashSecret(secret)
  await ctx.storage.transaction(
    async (tx) => {
      if (!(await tx.clubs.findByDomain(input.club))) {
        throw new ProblemError('club-not-found', { detail: `There is no club ${input.club}.` })
      }
      await tx.clients.insert({ id, club: input.club, secretHash, scopes, secretSetAt: now, createdAt: now })
    },
    { club: input.club },
  )
  return { client_id: id, client_secret: secret, scopes }
}

function newClientId(ctx: IssuerContext): string {
  return 'cc_' + Array.from(ctx.random.bytes(12), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** 256 random bits, base64url, behind a recognisable prefix so that secret scanners can find leaks. */
export function newSecret(ctx: IssuerContext, prefix: string): string {
  return prefix + toBase64Url(ctx.random.bytes(32))
}
