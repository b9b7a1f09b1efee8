/** A thread module for the pool's tests (pool.test.ts): each task says what the thread does. */
import { readlinkSync } from 'node:fs'
import { getPriority } from 'node:os'
import { serveTasks } from '../../../adapters/node/threads/serve.ts'

export type FixtureTask =
  | { kind: 'echo'; value: string }
  | { kind: 'throw'; message: string }
  /** Ends the thread, unless `deaths` (shared with the test) already counts one. */
  | { kind: 'die-once'; deaths: Int32Array }
  | { kind: 'spin' }
  | { kind: 'ask'; payload: string }
  | { kind: 'priority' }

serveTasks(async (task: FixtureTask, ask) => {
  switch (task.kind) {
    case 'echo':
      return task.value
    case 'throw':
      throw new Error(task.message, { cause: new Error('the cause') })
    case 'die-once':
      if (Atomics.add(task.deaths, 0, 1) === 0) process.exit(3)
      return 'survived'
    case 'spin':
      for (;;) Math.sqrt(Math.random())
    case 'ask':
      return `answered ${String(await ask(task.payload))}`
    case 'priority':
      return getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()))
  }
})
