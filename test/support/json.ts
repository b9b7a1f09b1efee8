/**
 * A JSON answer as a test reads it: what JSON.parse returns, its members read without a type check,
 * because the assertions on each member are the check. The harnesses that answer every route (API,
 * server process, CLI) give this; a helper that knows its answer's shape types it instead, with the
 * client's types (client/types.ts) or a local shape.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one decision for every harness answer, see above
export type Json = any

/** The lines of a process's output that are JSON objects (its log lines), parsed; other lines left out. */
export function jsonLines(output: string): Json[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line): Json => JSON.parse(line))
}
