import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ProblemError } from '../../../core/errors.ts'
import { createRenderGate } from '../../../core/files/render-gate.ts'

/**
 * The PDF gate: `concurrency` tasks run, `queue` wait in order, one more is refused at once.
 * @see docs/decisions/0029-no-request-stalls-every-club.md
 */
function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve }
}

describe('the render gate', () => {
  it('runs two, queues two in order, refuses the fifth with server-busy, and frees slots as tasks end', async () => {
    const gate = createRenderGate({ concurrency: 2, queue: 2 })
    const started: number[] = []
    const finish = [deferred(), deferred(), deferred(), deferred()]
    const task = (n: number) => gate.run(async () => (started.push(n), await finish[n]!.promise, n))
    const runs = [0, 1, 2, 3].map(task)
    await assert.rejects(task(4), (error: unknown) => error instanceof ProblemError && error.code === 'server-busy' && error.extra?.retryAfter === 1)
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(started, [0, 1], 'two run, two wait')
    finish[1]!.resolve()
    assert.equal(await runs[1], 1)
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(started, [0, 1, 2], 'the first waiter takes the freed slot')
    for (const n of [0, 2, 3]) finish[n]!.resolve()
    assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3])
    // All slots free again: a failing task frees its slot too.
    await assert.rejects(
      gate.run(async () => Promise.reject(new Error('boom'))),
      /boom/,
    )
    assert.deepEqual(await Promise.all([gate.run(async () => 'a'), gate.run(async () => 'b'), gate.run(async () => 'c')]), ['a', 'b', 'c'])
  })
})
