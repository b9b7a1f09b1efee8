/**
 * The Deno entry's drain (server/drain.ts, docs/shutdown.md § On Deno): a request in flight finishes, a
 * new one is answered 503 `shutting-down` with its request id, and that refusal has its request line
 * like every answer (docs/logs.md § Request lines).
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { drainable } from '../../server/drain.ts'
import type { AnsweredRequest } from '../../adapters/http/answered.ts'

describe('drainable', () => {
  it('finishes the request in flight, refuses a new one with 503 shutting-down, and reports the refusal', async () => {
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    const reported: AnsweredRequest[] = []
    const drain = drainable(
      async () => {
        await held
        return new Response('done')
      },
      'https://problems.example/',
      { onResponse: (answered) => reported.push(answered) },
    )
    const inFlight = drain.handler(new Request('http://127.0.0.1/v2/clubs/demo/issuances', { method: 'POST' }))
    let drained = false
    const begun = drain.begin().then(() => (drained = true))
    const refused = await drain.handler(
      new Request('http://127.0.0.1/v2/clubs/kim@example.org/', { headers: { 'x-request-id': 'late-1', 'user-agent': 'probe' } }),
    )
    assert.equal(refused.status, 503)
    assert.equal(refused.headers.get('x-request-id'), 'late-1')
    assert.equal(refused.headers.get('retry-after'), '1')
    const problem = (await refused.json()) as { code: string; requestId: string }
    assert.deepEqual([problem.code, problem.requestId], ['shutting-down', 'late-1'])
    assert.equal(drained, false, 'the request in flight holds the drain')
    release()
    assert.equal(await (await inFlight).text(), 'done')
    await begun
    assert.deepEqual(
      reported.map(({ requestId, method, route, path, status, headers }) => ({ requestId, method, route, path, status, headers })),
      [{ requestId: 'late-1', method: 'GET', route: null, path: '*', status: 503, headers: { 'user-agent': 'probe' } }],
      'one request line for the refusal, no raw path',
    )
  })
})
