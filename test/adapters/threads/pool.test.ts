/**
 * The one thread pool of the Node adapters (adapters/node/threads/pool.ts): a task's result or error
 * comes back, a thread that dies is replaced (its task failed, or retried where the pool says), a task
 * past its time budget fails and the next runs on a fresh thread, a full queue refuses at once, a module
 * that does not load fails the tasks waiting, background threads run at nice +10, closing fails what
 * waits, and an idle pool keeps no process alive.
 * @see docs/decisions/0050-worker-jobs-and-one-thread-pool.md
 */
import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { after, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { createThreadPool, ThreadTaskError, type ThreadPool } from '../../../adapters/node/threads/pool.ts'
import type { FixtureTask } from './fixture-thread.ts'

const FIXTURE = new URL('./fixture-thread.ts', import.meta.url)

function poolOf(options: { size?: number; retries?: number; timeBudgetMs?: number; maxWaiting?: number; background?: boolean } = {}) {
  const pool: ThreadPool<FixtureTask, unknown> = createThreadPool({ thread: FIXTURE, size: 1, name: 'the test pool', ...options })
  opened.push(pool)
  return pool
}
const opened: ThreadPool<FixtureTask, unknown>[] = []
after(() => Promise.all(opened.map((pool) => pool.close())))

async function failure(promise: Promise<unknown>): Promise<ThreadTaskError> {
  const error = await promise.then(
    () => assert.fail('the task did not fail'),
    (error: unknown) => error,
  )
  assert.ok(error instanceof ThreadTaskError, String(error))
  return error
}

describe('createThreadPool', () => {
  it('returns each task’s result, answers its questions, and fails a task with its error and causes while the thread goes on', async () => {
    const pool = poolOf({ size: 2 })
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((value) => pool.run({ kind: 'echo', value })))
    assert.deepEqual(results, ['a', 'b', 'c', 'd'])
    assert.equal(await pool.run({ kind: 'ask', payload: 'why' }, async (payload) => `${String(payload)}?`), 'answered why?')
    const failed = await failure(pool.run({ kind: 'throw', message: 'no such thing' }))
    assert.equal(failed.reason, 'failed')
    assert.equal(failed.message, 'the test pool: no such thing: the cause')
    assert.equal(await pool.run({ kind: 'echo', value: 'after' }), 'after')
  })

  it('replaces a thread that dies: its task fails, or runs again on a fresh thread where the pool retries', async () => {
    const failing = poolOf()
    const died = await failure(failing.run({ kind: 'die-once', deaths: new Int32Array(new SharedArrayBuffer(4)) }))
    assert.equal(died.reason, 'thread-died')
    assert.match(died.message, /exited with code 3/)
    assert.equal(await failing.run({ kind: 'echo', value: 'fresh' }), 'fresh')

    const retrying = poolOf({ retries: 1 })
    const deaths = new Int32Array(new SharedArrayBuffer(4))
    assert.equal(await retrying.run({ kind: 'die-once', deaths }), 'survived')
    assert.equal(deaths[0], 2, 'run twice: on the thread that died, then on a fresh one')
  })

  it('fails a task past its time budget and runs the next on a fresh thread', async () => {
    const pool = poolOf({ timeBudgetMs: 300 })
    assert.equal(await pool.run({ kind: 'echo', value: 'warm' }), 'warm')
    const started = performance.now()
    const stuck = await failure(pool.run({ kind: 'spin' }))
    assert.equal(stuck.reason, 'time-budget')
    assert.ok(performance.now() - started >= 290)
    assert.equal(await pool.run({ kind: 'echo', value: 'next' }), 'next')
  })

  it('refuses a task at once when its queue is full', async () => {
    const pool = poolOf({ maxWaiting: 2 })
    const settled = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => pool.run({ kind: 'echo', value: String(i) })))
    const busy = settled.filter((one) => one.status === 'rejected' && (one.reason as ThreadTaskError).reason === 'busy')
    assert.equal(busy.length, 4, 'two wait, the others are refused')
  })

  it('fails the tasks waiting when the thread module does not load', async () => {
    const pool = createThreadPool<FixtureTask, unknown>({ thread: new URL('./broken-thread.ts', import.meta.url), size: 1, name: 'the broken pool' })
    try {
      const error = await failure(pool.run({ kind: 'echo', value: 'never' }))
      assert.equal(error.reason, 'not-loaded')
      assert.match(error.detail, /this module does not load/)
    } finally {
      await pool.close()
    }
  })

  it(
    'runs background threads at nice +10, others at the process’s priority',
    { skip: process.platform !== 'linux' && 'nice per thread is Linux only' },
    async () => {
      assert.equal(await poolOf({ background: true }).run({ kind: 'priority' }), 10)
      assert.equal(await poolOf().run({ kind: 'priority' }), 0)
    },
  )

  it('fails what waits when it closes, and refuses afterwards', async () => {
    const pool = createThreadPool<FixtureTask, unknown>({ thread: FIXTURE, size: 1, name: 'the closing pool' })
    const waiting = [pool.run({ kind: 'spin' }), pool.run({ kind: 'echo', value: 'queued' })].map(failure)
    await pool.close()
    assert.deepEqual(
      (await Promise.all(waiting)).map((error) => error.reason),
      ['closed', 'closed'],
    )
    assert.equal((await failure(pool.run({ kind: 'echo', value: 'late' }))).reason, 'closed')
  })

  it('keeps no process alive once idle: a script that never closes its pool exits', async () => {
    const script = `
      import { createThreadPool } from ${JSON.stringify(new URL('../../../adapters/node/threads/pool.ts', import.meta.url).href)}
      const pool = createThreadPool({ thread: new URL(${JSON.stringify(FIXTURE.href)}), size: 2, name: 'the idle pool' })
      console.log(await pool.run({ kind: 'echo', value: 'done' }))
    `
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 })
    assert.equal(stdout.trim(), 'done')
  })
})
