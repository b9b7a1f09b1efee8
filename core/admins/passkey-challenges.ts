import { fromBase64Url, toBase64Url } from '../crypto/base64url.ts'
import type { ConsoleContext } from '../context.ts'
import type { PasskeyPurpose } from './passkey.ts'
import type { PasskeyRelyingParty } from '../ports/passkey-verifier.ts'

/** A ceremony's challenge works this long: the time the browser gives the person (adapters/node/passkey-verifier.ts). */
export const PASSKEY_CHALLENGE_MS = 300_000

/** The relying party of the console's passkeys: the RP ID is the public URL's host name, the origin its origin. */
export function relyingPartyOf(ctx: ConsoleContext): PasskeyRelyingParty {
  const url = new URL(ctx.config.urls.public)
  return { id: url.hostname, name: 'clubcred', origin: url.origin }
}

/**
 * A fresh challenge (32 random bytes) for one ceremony, stored so that any node can check it, bound to
 * what the ceremony is for (`PasskeyChallenge.boundTo`). `keep`: at most that many live challenges of
 * this purpose stay stored (those that expire first go), for a ceremony anyone may start.
 */
export async function issueChallenge(ctx: ConsoleContext, purpose: PasskeyPurpose, boundTo: string, keep?: number): Promise<string> {
  const challenge = toBase64Url(ctx.random.bytes(32))
  const now = ctx.clock.now()
  await ctx.storage.transaction((tx) => tx.passkeyChallenges.insert({ challenge, purpose, boundTo, expiresAt: now + PASSKEY_CHALLENGE_MS }, now, keep), {
    concurrent: true,
  })
  return challenge
}

/**
 * The challenge a browser's response signed, taken from the storage (so that it works once, whatever
 * follows), when it was given for this purpose and binding and has not expired; else `null`. The
 * response's `clientDataJSON` is read here only to find the challenge: the verifier checks it all.
 */
export async function takeChallenge(ctx: ConsoleContext, response: unknown, purpose: PasskeyPurpose, boundTo: string): Promise<string | null> {
  const challenge = challengeOf(response)
  if (challenge === null) return null
  const stored = await ctx.storage.transaction((tx) => tx.passkeyChallenges.consume(challenge), { concurrent: true })
  if (!stored || stored.purpose !== purpose || stored.boundTo !== boundTo || ctx.clock.now() >= stored.expiresAt) return null
  return challenge
}

function challengeOf(response: unknown): string | null {
  const clientData = (response as { response?: { clientDataJSON?: unknown } } | null)?.response?.clientDataJSON
  if (typeof clientData !== 'string' || clientData.length > 4096) return null
  try {
    const { challenge } = JSON.parse(new TextDecoder().decode(fromBase64Url(clientData))) as { challenge?: unknown }
    return typeof challenge === 'string' && challenge.length <= 128 ? challenge : null
  } catch {
    return null
  }
}
