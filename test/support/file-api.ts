import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Api } from './api-harness.ts'

/**
 * Helpers of the issuance-file tests (test/core/files/, test/adapters/pdf.test.ts, test/http/*files*,
 * test/browser/): paths, a template issued once, designs, and reading PNGs and PDFs as tools outside
 * clubcred do. The API is `openApi` (test/support/api-harness.ts), whose club is `chess`.
 */

export const FILES_CLUB = 'chess'

/** The file path of an issuance, with a format (or none). */
export function filePath(issuanceId: number, format?: string): string {
  return `/v2/clubs/${FILES_CLUB}/issuances/${issuanceId}/file${format === undefined ? '' : `?format=${encodeURIComponent(format)}`}`
}

/** Creates a template and issues it to one recipient; returns the template and issuance ids. */
export async function issueOne(
  api: Api,
  { template = {}, recipient = {} }: { template?: Record<string, unknown>; recipient?: Record<string, unknown> } = {},
): Promise<{ templateId: number; issuanceId: number }> {
  const created = await api.call('POST', `/v2/clubs/${FILES_CLUB}/achievements`, {
    name: '체스 입문',
    nameEn: 'Chess basics',
    type: 'completion',
    description: '체스의 기본 규칙과 전술을 익혔습니다.',
    tag: ['체스', 'chess'],
    criteria: { requirements: [{ type: 'course_complete', description: '입문 과정 8주 수료' }] },
    ...template,
  })
  assert.equal(created.status, 201, JSON.stringify(created.body))
  const issued = await api.call('POST', `/v2/clubs/${FILES_CLUB}/issuances`, {
    achievementFormId: created.body.data.id,
    mode: 'none',
    recipients: [{ externalUserId: 'kim', name: '김민준', email: 'minjun.kim@chess.example', ...recipient }],
  })
  assert.equal(issued.status, 200, JSON.stringify(issued.body))
  assert.equal(issued.body.results[0].status, 'issued', JSON.stringify(issued.body))
  return { templateId: created.body.data.id, issuanceId: issued.body.results[0].resourceId }
}

/** A design through HTTP; returns its id. */
export async function createDesign(api: Api, body: Record<string, unknown>): Promise<number> {
  const response = await api.call('POST', `/v2/clubs/${FILES_CLUB}/designs`, body)
  assert.equal(response.status, 201, JSON.stringify(response.body))
  return response.body.data.id
}

/** Splits a PNG into chunks as a reader outside clubcred would: length, type, data, CRC as stored. */
export function pngChunks(png: Uint8Array): { type: string; data: Uint8Array; crc: number; offset: number }[] {
  assert.deepStrictEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'the PNG signature')
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const chunks = []
  for (let offset = 8; offset < png.length;) {
    const length = view.getUint32(offset)
    const type = new TextDecoder('latin1').decode(png.subarray(offset + 4, offset + 8))
    chunks.push({ type, data: png.subarray(offset + 8, offset + 8 + length), crc: view.getUint32(offset + 8 + length), offset })
    offset += 12 + length
  }
  return chunks
}

/** Where poppler-utils (pdftotext, pdffonts, pdftoppm, pdfinfo) live on Debian. */
const POPPLER = '/usr/bin/pdftotext'

/**
 * CI installs poppler-utils (.ci/run DEBIAN_PACKAGES); a developer machine without it skips the tests
 * that read PDFs with it, saying why.
 */
export const skipWithoutPoppler: string | false =
  !existsSync(POPPLER) && !process.env.CI ? `${POPPLER} is not installed (apt-get install poppler-utils)` : false

/** Runs a poppler tool on PDF bytes (written to a temporary file) and returns its standard output. */
export function poppler(tool: 'pdftotext' | 'pdffonts' | 'pdfinfo' | 'pdfimages', pdf: Uint8Array, args: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'clubcred-pdf-'))
  try {
    const file = join(dir, 'certificate.pdf')
    writeFileSync(file, pdf)
    const output = tool === 'pdftotext' ? [file, '-'] : [file]
    return execFileSync(`/usr/bin/${tool}`, [...args, ...output], { encoding: 'utf8' })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The text of a PDF as pdftotext extracts it in content-stream order (`-raw`, so that rotated text such as
 * the REVOKED stamp comes out whole), white space collapsed.
 */
export function pdfText(pdf: Uint8Array): string {
  return poppler('pdftotext', pdf, ['-raw']).replace(/\s+/g, ' ')
}
