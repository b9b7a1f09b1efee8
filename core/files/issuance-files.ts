import { ProblemError } from '../errors.ts'
import { createDownloadLimiter } from './download-limiter.ts'
import { prepareIssuanceFile, type FileRendering, type IssuanceFile } from './prepare-file.ts'
import { createRenderCache } from './render-cache.ts'
import { createRenderGate, type RenderGate } from './render-gate.ts'
import type { IssuerContext } from '../context.ts'
import type { CertificateRenderer } from '../ports/certificate-renderer.ts'

/**
 * `issuer.issuances.file`: the certificate file of docs/api.md §4.6 (`prepare-file.ts`) behind the limits of
 * `config.files`, one set per issuer. A club past its download rate gets 429 `rate-limited` with
 * `Retry-After` before anything is read; rendered files are kept by strong ETag; PDFs render a few at a
 * time (503 `server-busy` when the queue is full).
 */
export function createIssuanceFiles(ctx: IssuerContext, renderer: CertificateRenderer | null, gate: RenderGate = createFilesRenderGate(ctx)) {
  const { cacheBytes, downloadsPerClub } = ctx.config.files
  const rendering: FileRendering = { cache: cacheBytes > 0 ? createRenderCache({ maxBytes: cacheBytes }) : null, gate }
  const downloads = downloadsPerClub ? createDownloadLimiter({ clock: ctx.clock, ...downloadsPerClub }) : null

  return async function issuanceFile(club: string, issuanceId: number, format: string | null): Promise<IssuanceFile> {
    const retryAfter = downloads?.take(club) ?? 0
    if (retryAfter > 0) {
      throw new ProblemError('rate-limited', {
        detail: `This club has asked for files faster than ${downloadsPerClub!.perSecond} a second; try again in ${retryAfter} s.`,
        extra: { retryAfter },
      })
    }
    return prepareIssuanceFile(ctx, renderer, club, issuanceId, format, rendering)
  }
}

/** The gate of `config.files` (`renderConcurrency`, `renderQueue`): one per issuer, shared by every PDF it renders. */
export function createFilesRenderGate(ctx: IssuerContext): RenderGate {
  return createRenderGate({ concurrency: ctx.config.files.renderConcurrency, queue: ctx.config.files.renderQueue })
}
