import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { causesOf, type FromThread, type ThreadData, type ToThread } from './protocol.ts'

/** Asks the calling thread a question about the task (a JSON-LD document to load, say), answered by its `answer`. */
export type Ask = (payload: unknown) => Promise<unknown>

/**
 * The thread side of a pool (pool.ts): runs `handle` for each task the pool sends, one at a time as the
 * pool sends them, and posts its result or its error's message. Called once, at the end of the thread
 * module's loading, so that `ready` tells the pool that the module and its libraries loaded.
 */
export function serveTasks<Task, Result>(handle: (task: Task, ask: Ask) => Promise<Result>): void {
  const port = parentPort
  if (!port) throw new Error('serveTasks runs in a worker thread of a pool (adapters/node/threads/pool.ts)')
  const post = (message: FromThread) => port.postMessage(message)
  if ((workerData as ThreadData).background) lowerPriority()
  const asked = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()
  let nextQuestion = 0
  port.on('message', (message: ToThread) => {
    if (message.type === 'answer') {
      const waiting = asked.get(message.question)
      asked.delete(message.question)
      if (message.error !== undefined) waiting?.reject(new Error(message.error))
      else waiting?.resolve(message.value)
      return
    }
    const { id } = message
    const ask: Ask = (payload) =>
      new Promise((resolve, reject) => {
        const question = nextQuestion++
        asked.set(question, { resolve, reject })
        post({ type: 'ask', id, question, payload })
      })
    handle(message.task as Task, ask).then(
      (result) => post({ type: 'done', id, result }),
      (error: unknown) => post({ type: 'done', id, error: causesOf(error) }),
    )
  })
  post({ type: 'ready' })
}

/** Nice +10 for this thread alone, where the system allows it: on Linux a thread's id is a process id to setpriority. */
function lowerPriority(): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 10)
  } catch {
    // Elsewhere (macOS, Windows, Deno without /proc) the thread runs at the process's priority.
  }
}
