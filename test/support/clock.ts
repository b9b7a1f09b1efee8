import type { Clock } from '../../core/ports/clock.ts'

/** A clock the test moves by hand. It refuses to go backwards, as the Clock port demands. */
export interface TestClock extends Clock {
  /** Sets the time (ms since the epoch). */
  set(ms: number): void
  /** Moves the time forward by `ms`. */
  advance(ms: number): void
}

/** Starts at a whole second so that JWT `iat`/`exp` arithmetic in tests is exact. */
export const TEST_EPOCH = Date.UTC(2030, 0, 1, 12, 0, 0)

export function createTestClock(start = TEST_EPOCH): TestClock {
  let now = start
  return {
    now: () => now,
    set(ms) {
      if (ms < now) throw new RangeError(`test clock: cannot go back from ${now} to ${ms}`)
      now = ms
    },
    advance(ms) {
      if (ms < 0) throw new RangeError('test clock: cannot go backwards')
      now += ms
    },
  }
}
