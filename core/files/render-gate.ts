import { ProblemError } from '../errors.ts'

/**
 * Bounds the heavy renderings (certificate PDFs) running at once. pdf-lib lays a page out on the event
 * loop that every club shares; running many at once only makes each slower and holds their memory
 * together. `concurrency` run, up to `queue` wait in order, and one more is refused at once with 503
 * `server-busy` and `Retry-After`, so that a burst cannot build a backlog that takes minutes to clear.
 */
export interface RenderGate {
  run<T>(task: () => Promise<T>): Promise<T>
}

export function createRenderGate({
  concurrency,
  queue,
  busyDetail = 'Too many certificates are being rendered right now; try again in a moment.',
}: {
  concurrency: number
  queue: number
  /** The 503's detail: what is being rendered. */
  busyDetail?: string
}): RenderGate {
  let running = 0
  const waiting: (() => void)[] = []

  function release(): void {
    const next = waiting.shift()
    if (next) next()
    else running--
  }

  return {
    async run(task) {
      if (running < concurrency) running++
      else if (waiting.length < queue) await new Promise<void>((resolve) => waiting.push(resolve))
      else {
        throw new ProblemError('server-busy', { detail: busyDetail, extra: { retryAfter: 1 } })
      }
      // The slot passes from a finished task straight to the next waiter, so `running` stays as it was.
      try {
        return await task()
      } finally {
        release()
      }
    },
  }
}
