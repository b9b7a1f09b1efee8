/**
 * Share cards in core (core/share-cards/share-card.ts): the strong ETag is a digest of what the card shows
 * (badge, achievement name, club name) and nothing else, so credentials of one template share one card,
 * drawn once; concurrent requests wait for that one drawing; at most two draw at once, 32 wait, and one
 * more is refused with `server-busy` at once. A renderer that never finishes until released stands in
 * for resvg; the credentials are unsigned JWTs, which is all the card reads of them.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { toBase64Url } from '../../../core/crypto/base64url.ts'
import { ProblemError } from '../../../core/errors.ts'
import { createShareCards } from '../../../core/share-cards/share-card.ts'
import type { IssuerContext } from '../../../core/context.ts'
import type { ShareCardRenderer } from '../../../core/ports/share-card-renderer.ts'

const encode = (value: unknown) => toBase64Url(new TextEncoder().encode(JSON.stringify(value)))

function jwt(achievementName: string, clubName = 'Chess Club'): string {
  const vc = { issuer: { name: clubName }, credentialSubject: { achievement: { name: achievementName } } }
  return `${encode({ alg: 'ES256' })}.${encode({ vc })}.c2ln`
}

/** The context `createShareCards` reads: credentials by id (each `{ club, jwt }`), no images. */
function contextWith(credentials: Record<string, { club: string; jwt: string }>): IssuerContext {
  return {
    storage: {
      credentials: { findById: async (id: string) => credentials[id] ?? null },
      images: { findByHash: async () => null },
    },
  } as unknown as IssuerContext
}

/** A renderer whose drawings finish when `release()` is called; it counts the drawings started. */
function heldRenderer() {
  const waiting: (() => void)[] = []
  let started = 0
  const renderer: ShareCardRenderer = {
    renderPng: (svg) => {
      started++
      return new Promise((resolve) => waiting.push(() => resolve(new TextEncoder().encode(svg.slice(0, 8)))))
    },
  }
  return {
    renderer,
    started: () => started,
    release: () => {
      for (const finish of waiting.splice(0)) finish()
    },
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve))

describe('share cards', () => {
  it('one card per template and name: the same content gives one ETag and one drawing; another name another ETag', async () => {
    const held = heldRenderer()
    const cards = createShareCards(
      contextWith({ a: { club: 'chess', jwt: jwt('체스 입문') }, b: { club: 'chess', jwt: jwt('체스 입문') }, c: { club: 'chess', jwt: jwt('바둑 입문') } }),
      held.renderer,
    )
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((id) => cards.card('chess', id)))
    assert.equal(a!.etag, b!.etag)
    assert.notEqual(a!.etag, c!.etag)
    const pngs = Promise.all([a!.png(), b!.png(), a!.png()])
    await flush()
    assert.equal(held.started(), 1, 'one drawing for three requests of one card')
    held.release()
    const [first, second] = await pngs
    assert.equal(first, second, 'the same bytes')
    await a!.png()
    assert.equal(held.started(), 1, 'kept: drawn once')
  })

  it('draws two at once, lets 32 wait, and refuses one more at once with server-busy', async () => {
    const held = heldRenderer()
    const credentials = Object.fromEntries(Array.from({ length: 35 }, (_, i) => [`c${i}`, { club: 'chess', jwt: jwt(`카드 ${i}`) }]))
    const cards = createShareCards(contextWith(credentials), held.renderer)
    const files = await Promise.all(Object.keys(credentials).map((id) => cards.card('chess', id)))
    const pngs = files.slice(0, 34).map((file) => file!.png())
    await flush()
    assert.equal(held.started(), 2)
    await assert.rejects(files[34]!.png(), (error: unknown) => error instanceof ProblemError && error.code === 'server-busy' && error.extra?.retryAfter === 1)
    for (let round = 0; round < 17; round++) {
      held.release()
      await flush()
    }
    assert.equal((await Promise.all(pngs)).length, 34)
    assert.equal(held.started(), 34)
  })

  it('has no card for another club’s credential, an unknown one, or without a renderer', async () => {
    const context = contextWith({ a: { club: 'chess', jwt: jwt('체스') } })
    const cards = createShareCards(context, heldRenderer().renderer)
    assert.equal(await cards.card('go', 'a'), null)
    assert.equal(await cards.card('chess', 'nope'), null)
    assert.equal(await createShareCards(context, null).card('chess', 'a'), null)
  })
})
