/**
 * What the benches measure with: the median and other percentiles of their samples, and the bytes the
 * process has written to disk so far.
 */
import { readFileSync } from 'node:fs'

/** The middle value (the upper one of an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** The value below which `p` percent of the samples lie (nearest rank): `percentile(values, 99)` is the p99. */
export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/**
 * Bytes this process has caused to be written to storage (`write_bytes` of `/proc/self/io`: the WAL, and
 * the database file when a commit checkpoints); Linux only, `null` elsewhere. Take it before and after.
 */
export function bytesWritten(): number | null {
  try {
    return Number(/^write_bytes: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1])
  } catch {
    return null
  }
}
