import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createWorkGate } from '../../adapters/admin/work-gate.ts'

describe('work gate (the CSV preview bound)', () => {
  it('runs at most `atOnce` at a time, refuses the next with null without running it, and admits again once one ends', async () => {
    const gate = createWorkGate(2)
    const releases: (() => void)[] = []
    const held = () => new Promise<string>((resolve) => releases.push(() => resolve('done')))
    const first = gate.run(held)
    const second = gate.run(held)
    let ran = false
    assert.equal(
      await gate.run(async () => {
        ran = true
        return 'third'
      }),
      null,
    )
    assert.equal(ran, false)
    releases[0]!()
    assert.equal(await first, 'done')
    assert.equal(await gate.run(async () => 'fourth'), 'fourth')
    releases[1]!()
    assert.equal(await second, 'done')
  })

  it('a failing work frees its place and rejects with its error', async () => {
    const gate = createWorkGate(1)
    await assert.rejects(
      gate.run(async () => {
        throw new Error('broken')
      }),
      /broken/,
    )
    assert.equal(await gate.run(async () => 'next'), 'next')
  })
})
