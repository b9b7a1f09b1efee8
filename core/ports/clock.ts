/**
 * Where core reads the time. Synchronous on purpose: it is a source, not I/O, and it sits on every hot
 * path (token checks, signing). Tests inject a fixed or controllable clock.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. MUST never go backwards within one process. */
  now(): number
}

export const systemClock: Clock = { now: () => Date.now() }
