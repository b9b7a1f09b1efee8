/**
 * Certificate PDFs: how many per second one process renders, and its peak memory, for 1,000 certificates
 * of 1,000 different recipients (Hangul names, so every document subsets its own glyphs). Two subjects on
 * the same port: the renderer alone (`renderPdf(model)`, models prepared beforehand) and the whole file
 * path in-process (`issuer.issuances.file(...)`: storage reads, the model, the ETag, then the render).
 * Memory: RSS sampled every 5 ms during the runs, and the process's maximum RSS from
 * `process.resourceUsage()`. Prints one JSON line.
 *
 *   npx tsx bench/pdf.bench.ts [--count 1000]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { defaultUrls } from '../index.ts'
import { createCoreIssuerFromContext, createIssuerContext } from '../core/create-core-issuer.ts'
import { createSqliteStorage } from '../adapters/sqlite/index.ts'
import { betterSqlite3Driver } from '../adapters/sqlite/driver-better-sqlite3.ts'
import { createNodeSigner } from '../adapters/node/index.ts'
import { createPdfRenderer } from '../adapters/pdf/index.ts'
import { prepareIssuanceFile } from '../core/files/prepare-file.ts'
import type { CertificateModel } from '../core/files/certificate-model.ts'
import { benchSettings } from './settings.ts'

const { count: COUNT } = benchSettings({ count: 1000 })
const WARM_UP = 20
const MiB = 1024 * 1024

const SURNAMES = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황', '안', '송', '류', '홍']
const GIVEN = [
  '민준',
  '서연',
  '도윤',
  '하은',
  '시우',
  '지유',
  '주원',
  '서윤',
  '하준',
  '지우',
  '지호',
  '수아',
  '준서',
  '채원',
  '건우',
  '다은',
  '우진',
  '예은',
  '선우',
  '소율',
]

/** RSS sampled on a timer (it fires between the awaits of each render), and the peak seen. */
function sampleRss() {
  let peak = process.memoryUsage().rss
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5)
  return {
    stop() {
      clearInterval(timer)
      return Math.max(peak, process.memoryUsage().rss)
    },
  }
}

const dir = mkdtempSync(join(tmpdir(), 'clubcred-bench-pdf-'))
try {
  const renderer = createPdfRenderer()
  const options = {
    storage: createSqliteStorage({ driver: betterSqlite3Driver(join(dir, 'bench.db')) }),
    masterKey: new Uint8Array(32).fill(1),
    urls: defaultUrls(8787),
    signer: createNodeSigner(),
    certificates: renderer,
    // The library subject renders 1,020 certificates of one club as fast as it can: no per-club rate.
    files: { downloadsPerClub: null },
  }
  // The bench holds the context it builds the issuer on: the prepared-model subject below calls the file path's
  // first half (prepareIssuanceFile) on the same ports.
  const context = createIssuerContext(options)
  const issuer = createCoreIssuerFromContext(context, options)
  await issuer.clubs.create({ domain: 'bench', name: '벤치 체스 클럽' })
  const template = await issuer.achievements.create('bench', {
    name: '체스 입문 과정',
    nameEn: 'Introduction to Chess',
    description: '체스의 기본 규칙, 기물의 움직임, 기초 전술과 엔드게임 원리를 익히고 실전 대국을 마쳤습니다.',
    tag: ['체스', 'chess', '전술'],
    criteria: {
      requirements: [
        { type: 'course_complete', description: '입문 과정 8주 수료', url: 'https://chess.example/course' },
        { type: 'score', description: '최종 평가 80점 이상' },
      ],
    },
  })
  const recipients = Array.from({ length: COUNT + WARM_UP }, (_, i) => ({
    externalUserId: `u${i}`,
    name: `${SURNAMES[i % SURNAMES.length]}${GIVEN[Math.floor(i / SURNAMES.length) % GIVEN.length]}${i >= SURNAMES.length * GIVEN.length ? ` ${i}` : ''}`,
    email: `u${i}@bench.example`,
  }))
  const ids: number[] = []
  for (let start = 0; start < recipients.length; start += 1000) {
    const { result } = await issuer.issuances.issue('bench', {
      achievementFormId: template.id,
      mode: 'none',
      recipients: recipients.slice(start, start + 1000),
    })
    for (const item of result.results) if (item.status === 'issued') ids.push(item.resourceId)
  }
  await issuer.worker.drain()

  // Warm-up: the font loaded and parsed, the JIT warm; not measured.
  for (const id of ids.slice(0, WARM_UP)) await (await issuer.issuances.file('bench', id, 'pdf')).render()
  const measured = ids.slice(WARM_UP)

  // The models, prepared beforehand: the file path once more, with a renderer that only keeps them.
  const models: CertificateModel[] = []
  const keep = { renderPdf: async (model: CertificateModel) => (models.push(model), new Uint8Array()) }
  for (const id of measured) await (await prepareIssuanceFile(context, keep, 'bench', id, 'pdf')).render()

  const rssBefore = process.memoryUsage().rss
  let sampler = sampleRss()
  let bytes = 0
  const latencies: number[] = []
  let started = performance.now()
  for (const model of models) {
    const t0 = performance.now()
    bytes += (await renderer.renderPdf(model)).length
    latencies.push(performance.now() - t0)
  }
  const rendererSeconds = (performance.now() - started) / 1000
  const rendererPeakRss = sampler.stop()

  sampler = sampleRss()
  started = performance.now()
  for (const id of measured) await (await issuer.issuances.file('bench', id, 'pdf')).render()
  const librarySeconds = (performance.now() - started) / 1000
  const libraryPeakRss = sampler.stop()
  await issuer.close()

  latencies.sort((a, b) => a - b)
  const percentile = (p: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(1))
  console.log(
    JSON.stringify({
      bench: 'pdf',
      certificates: COUNT,
      rendererPdfsPerSecond: Number((COUNT / rendererSeconds).toFixed(1)),
      libraryPdfsPerSecond: Number((COUNT / librarySeconds).toFixed(1)),
      rendererMsP50: percentile(50),
      rendererMsP95: percentile(95),
      averagePdfBytes: Math.round(bytes / COUNT),
      rssBeforeMiB: Math.round(rssBefore / MiB),
      peakRssMiB: Math.round(Math.max(rendererPeakRss, libraryPeakRss) / MiB),
      maxRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      node: process.version,
    }),
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
