/**
 * The messages between a pool (pool.ts) and its threads (serve.ts): a task out, questions the task asks
 * of the calling thread and their answers, and the task's end.
 */
export type ToThread = { type: 'task'; id: number; task: unknown } | { type: 'answer'; question: number; value?: unknown; error?: string }

export type FromThread =
  /** The thread's module is loaded (its libraries with it), or could not be: `error`. */
  | { type: 'ready'; error?: string }
  | { type: 'ask'; id: number; question: number; payload: unknown }
  | { type: 'done'; id: number; result?: unknown; error?: string }

/** What the pool gives each thread: the module to import and how, and whether to run at a lower priority. */
export interface ThreadData {
  /** The thread module's URL: `.ts` in the sources, `.js` once compiled. */
  module: string
  /** Under tsx on Node: the URL of tsx's API, whose `tsImport` loads a `.ts` module; else `null`. */
  tsx: string | null
  background: boolean
}

/** The message of an error and of its causes (jsonld wraps a document loader's error in `details.cause`, which names the URL). */
export function causesOf(error: unknown): string {
  const messages: string[] = []
  for (let e = error as { message?: unknown; cause?: unknown; details?: { cause?: unknown } } | undefined; e; e = (e.cause ?? e.details?.cause) as typeof e) {
    messages.push(String(e.message ?? e))
  }
  return messages.join(': ')
}
