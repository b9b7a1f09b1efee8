import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createMutex } from '../../../adapters/shared/mutex.ts'

const tick = () => new Promise((resolve) => setTimeout(resolve, 2))

describe('the storage mutex', () => {
  it('runs exclusive work one holder at a time, in call order', async () => {
    const mutex = createMutex()
    const events: string[] = []
    await Promise.all(
      ['a', 'b', 'c'].map((name) =>
        mutex.exclusive(async () => {
          events.push(`${name}+`)
          await tick()
          events.push(`${name}-`)
        }),
      ),
    )
    assert.deepStrictEqual(events, ['a+', 'a-', 'b+', 'b-', 'c+', 'c-'])
  })

  it('a failing holder passes its error on and does not block the next', async () => {
    const mutex = createMutex()
    const failure = new Error('boom')
    const first = mutex.exclusive(async () => {
      throw failure
    })
    const second = mutex.exclusive(async () => 'second ran')
    await assert.rejects(first, (error) => error === failure)
    assert.equal(await second, 'second ran')
  })

  it('a read runs at once when the mutex is free', async () => {
    const mutex = createMutex()
    let ran = false
    const read = mutex.read(() => {
      ran = true
      return 1
    })
    assert.equal(ran, true)
    assert.equal(await read, 1)
  })

  it('a read waits for the current holder', async () => {
    const mutex = createMutex()
    const events: string[] = []
    const holder = mutex.exclusive(async () => {
      events.push('holder+')
      await tick()
      events.push('holder-')
    })
    const read = mutex.read(() => events.push('read'))
    await Promise.all([holder, read])
    assert.deepStrictEqual(events, ['holder+', 'holder-', 'read'])
  })

  it('a read that throws rejects without affecting the mutex', async () => {
    const mutex = createMutex()
    await assert.rejects(
      mutex.read(() => {
        throw new Error('read failed')
      }),
      /read failed/,
    )
    assert.equal(await mutex.exclusive(async () => 'ok'), 'ok')
  })
})
