import { Worker } from 'node:worker_threads'
import type { FromThread, ThreadData, ToThread } from './protocol.ts'

export interface ThreadPoolOptions {
  /**
   * The thread module, which calls `serveTasks` (serve.ts): a file of this folder by its name without
   * extension (`jwt-thread`), found as `.ts` in the sources and `.js` once compiled; or a module's URL.
   */
  thread: string | URL
  /** Threads at most; each runs one task at a time. They start when tasks wait for them. */
  size: number
  /** Names the pool in its errors ("the Data Integrity signer is closed"). */
  name: string
  /** Runs the threads at nice +10 (Linux), so that they take the CPU time the calling thread's work leaves. */
  background?: boolean
  /**
   * How long one task may run on its thread, counted from when the thread takes it: a thread past it is
   * terminated (CPU work no promise can interrupt), the task fails with `time-budget`, and a fresh thread
   * takes the next. Default: none.
   */
  timeBudgetMs?: number
  /** Tasks that may wait for a thread; one more fails at once with `busy`. Default: no bound. */
  maxWaiting?: number
  /**
   * How often a task whose thread died under it is run again, on a fresh thread, before it fails with
   * `thread-died`: for work that is safe to repeat and not the cause (a signature). Default: 0.
   */
  retries?: number
}

/** Why a task failed: its own error (`failed`), or the pool's. */
export type ThreadTaskFailure = 'failed' | 'not-loaded' | 'thread-died' | 'time-budget' | 'busy' | 'closed'

export class ThreadTaskError extends Error {
  readonly reason: ThreadTaskFailure
  /** What failed, without the pool's name: the task's error, or why its thread died or did not load. */
  readonly detail: string
  constructor(reason: ThreadTaskFailure, message: string, detail = message) {
    super(message)
    this.name = this.constructor.name
    this.reason = reason
    this.detail = detail
  }
}

export interface ThreadPool<Task, Result> {
  /**
   * Runs `task` on the first thread free. `answer` answers the questions the task asks of this thread
   * while it runs (serve.ts `Ask`). Rejects with a `ThreadTaskError`.
   */
  run(task: Task, answer?: (payload: unknown) => Promise<unknown>): Promise<Result>
  /** Fails every task waiting or running with `closed` and terminates the threads. */
  close(): Promise<void>
}

interface Entry {
  id: number
  task: unknown
  answer: ((payload: unknown) => Promise<unknown>) | undefined
  retried: number
  resolve: (result: never) => void
  reject: (error: ThreadTaskError) => void
}

interface Slot {
  worker: Worker
  ready: boolean
  current: Entry | null
  timer: ReturnType<typeof setTimeout> | null
}

/**
 * One pool of worker threads for the Node adapters (docs/decisions/0050-worker-jobs-and-one-thread-pool.md):
 * a queue, one task a thread at a time so that the queue decides what comes next, threads started as
 * tasks wait and replaced when they die or overrun, idle threads unref'd so that they keep no process
 * alive. The thread's code is a module the type check and the linter read; a thread starts from a
 * bootstrap of a few lines that only imports it: through tsx's `tsImport` under tsx (a `.ts` file does
 * not load in a thread otherwise, and tsx's loader passed on by execArgv would keep the thread, and so
 * the process, alive), the `.js` once compiled, natively on Deno.
 */
export function createThreadPool<Task, Result>({
  thread,
  size,
  name,
  background = false,
  timeBudgetMs,
  maxWaiting = Infinity,
  retries = 0,
}: ThreadPoolOptions): ThreadPool<Task, Result> {
  const data = threadData(thread, background)
  const queue: Entry[] = []
  const slots: Slot[] = []
  let nextId = 0
  let closed = false

  function start(): Slot {
    // No inherited execArgv: a loader such as tsx would keep the thread, and so the process, alive.
    const worker = new Worker(BOOTSTRAP, { eval: true, execArgv: [], workerData: data })
    const slot: Slot = { worker, ready: false, current: null, timer: null }
    worker.on('message', (message: FromThread) => receive(slot, message))
    worker.on('error', (error) => died(slot, error.message))
    worker.on('exit', (code) => died(slot, `exited with code ${code}`))
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref()
    return slot
  }

  function receive(slot: Slot, message: FromThread): void {
    if (!slots.includes(slot)) return
    if (message.type === 'ready') {
      if (message.error !== undefined) return notLoaded(slot, message.error)
      slot.ready = true
    } else if (message.type === 'ask') {
      void answer(slot, message)
      return
    } else if (slot.current?.id === message.id) {
      const entry = slot.current
      finish(slot)
      if (message.error !== undefined) entry.reject(new ThreadTaskError('failed', `${name}: ${message.error}`, message.error))
      else entry.resolve(message.result as never)
    }
    dispatch()
  }

  async function answer(slot: Slot, { id, question, payload }: { id: number; question: number; payload: unknown }): Promise<void> {
    let reply: ToThread
    try {
      const entry = slot.current
      if (entry?.id !== id || !entry.answer) throw new Error('its task has ended')
      reply = { type: 'answer', question, value: await entry.answer(payload) }
    } catch (error) {
      reply = { type: 'answer', question, error: error instanceof Error ? error.message : String(error) }
    }
    if (slots.includes(slot)) slot.worker.postMessage(reply)
  }

  function finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer)
    slot.timer = null
    slot.current = null
  }

  /** Takes `slot` out of the pool and terminates its thread; the next task waiting starts a fresh one. */
  function remove(slot: Slot): void {
    const at = slots.indexOf(slot)
    if (at < 0) return
    slots.splice(at, 1)
    finish(slot)
    void slot.worker.terminate()
  }

  function died(slot: Slot, why: string): void {
    if (!slots.includes(slot)) return
    const entry = slot.current
    remove(slot)
    if (entry && entry.retried < retries) {
      entry.retried++
      queue.unshift(entry)
    } else {
      entry?.reject(new ThreadTaskError('thread-died', `${name}: its thread died (${why})`, why))
    }
    dispatch()
  }

  /** The module does not load: no thread would load it now, so the tasks waiting fail with it. */
  function notLoaded(slot: Slot, why: string): void {
    remove(slot)
    const error = new ThreadTaskError('not-loaded', `${name}: its thread did not load (${why})`, why)
    for (const entry of queue.splice(0)) entry.reject(error)
    dispatch()
  }

  function overran(slot: Slot): void {
    const entry = slot.current
    remove(slot)
    entry?.reject(new ThreadTaskError('time-budget', `${name}: the task took longer than ${timeBudgetMs} ms`))
    dispatch()
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (queue.length === 0) break
      if (!slot.ready || slot.current) continue
      const entry = queue.shift()!
      slot.current = entry
      if (timeBudgetMs !== undefined) slot.timer = setTimeout(() => overran(slot), timeBudgetMs)
      slot.worker.postMessage({ type: 'task', id: entry.id, task: entry.task } satisfies ToThread)
    }
    const starting = slots.filter((slot) => !slot.ready).length
    for (let i = starting; i < queue.length && slots.length < size && !closed; i++) slots.push(start())
    // A thread with a task, or loading for one, keeps the process alive until it answers; an idle one does not.
    for (const slot of slots) {
      if (slot.current || (!slot.ready && queue.length > 0)) slot.worker.ref()
      else slot.worker.unref()
    }
  }

  return {
    run(task, answer) {
      if (closed) return Promise.reject(new ThreadTaskError('closed', `${name} is closed`))
      if (queue.length >= maxWaiting) return Promise.reject(new ThreadTaskError('busy', `${name} is busy`))
      return new Promise<Result>((resolve, reject) => {
        queue.push({ id: nextId++, task, answer, retried: 0, resolve: resolve as (result: never) => void, reject })
        dispatch()
      })
    },
    async close() {
      closed = true
      const error = new ThreadTaskError('closed', `${name} is closed`)
      for (const entry of queue.splice(0)) entry.reject(error)
      const all = slots.splice(0)
      for (const slot of all) {
        slot.current?.reject(error)
        finish(slot)
      }
      await Promise.all(all.map((slot) => slot.worker.terminate()))
    },
  }
}

/**
 * The whole of a thread's code outside the type check: it imports the thread module, which serves the
 * pool's tasks (serve.ts), and tells the pool when that module does not load.
 */
const BOOTSTRAP = `
const { parentPort, workerData } = require('node:worker_threads')
const loading = workerData.tsx ? import(workerData.tsx).then((tsx) => tsx.tsImport(workerData.module, workerData.module)) : import(workerData.module)
loading.catch((error) => parentPort.postMessage({ type: 'ready', error: String((error && error.message) || error) }))
`

/** The thread module beside this file (`.ts` in the sources, `.js` once compiled), and tsx's API where a `.ts` needs it. */
function threadData(thread: string | URL, background: boolean): ThreadData {
  const module = thread instanceof URL ? thread.href : new URL(`./${thread}${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url).href
  return { module, tsx: module.endsWith('.ts') && !('Deno' in globalThis) ? import.meta.resolve('tsx/esm/api') : null, background }
}
