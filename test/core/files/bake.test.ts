import assert from 'node:assert/strict'
import { crc32 as zlibCrc32 } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import { DOMParser } from '@xmldom/xmldom'
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose'
import { bakePng } from '../../../core/files/bake-png.ts'
import { bakeSvg, OPENBADGES_NAMESPACE } from '../../../core/files/bake-svg.ts'
import { crc32 } from '../../../core/files/crc32.ts'
import { encodePng } from '../../../core/files/encode-png.ts'
import { readPngChunks } from '../../../core/files/png-chunks.ts'
import { defaultBadgePng, defaultBadgeSvg, initialsOf } from '../../../core/designs/default-badge.ts'
import { imageProblem } from '../../../core/designs/image.ts'
import { assertSignedCredential } from '../../support/ob3-schema.ts'
import { assertProblem } from '../../support/achievement-api.ts'
import { openApi, type Api } from '../../support/api-harness.ts'
import { FILES_CLUB, createDesign, filePath, issueOne, pngChunks } from '../../support/file-api.ts'
import type { Json } from '../../support/json.ts'

/**
 * Baked badges (Open Badges 3.0 "Baking"): the PNG's `iTXt` chunk `openbadgecredential` and the
 * SVG's `<openbadges:credential>` carry the signed credential, so that a badge file dropped into a
 * validator carries its own proof. Un-baked here as a validator would, and the JWT found verified.
 */

const JWT = 'eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.c2lnbmF0dXJl'
const EMAIL = 'minjun.kim@chess.example'

describe('CRC-32', () => {
  it('matches the check value of the standard and zlib on chunk-like inputs', () => {
    assert.equal(crc32(new TextEncoder().encode('123456789')), 0xcbf43926, 'the CRC-32 check value')
    assert.equal(crc32(new Uint8Array(0)), 0)
    assert.equal(crc32(new TextEncoder().encode('IEND')), 0xae426082, 'the CRC every PNG ends with')
    const random = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919 + 13) & 0xff)
    assert.equal(crc32(random), zlibCrc32(random))
    assert.equal(crc32(random.subarray(0, 1000), random.subarray(1000)), zlibCrc32(random), 'parts are one stream')
  })
})

describe('bakePng', () => {
  let png: Uint8Array
  before(async () => {
    png = await encodePng({ width: 2, height: 2, pixels: Uint8Array.from({ length: 16 }, (_, i) => i * 16) })
  })

  it('puts one iTXt openbadgecredential right after IHDR, uncompressed, with valid CRCs, and keeps every other chunk', () => {
    const baked = bakePng(png, JWT)
    const chunks = pngChunks(baked)
    assert.deepEqual(
      chunks.map((chunk) => chunk.type),
      ['IHDR', 'iTXt', 'IDAT', 'IEND'],
    )
    for (const chunk of chunks) assert.equal(chunk.crc, zlibCrc32(Buffer.concat([Buffer.from(chunk.type, 'latin1'), chunk.data])), `${chunk.type} CRC`)
    assert.deepEqual(unbakePng(baked), { compressionFlag: 0, compressionMethod: 0, language: '', translated: '', text: JWT })
    const original = pngChunks(png)
    assert.deepEqual(chunks[2]!.data, original[1]!.data, 'the image data is untouched')
  })

  it('replaces a credential baked before instead of adding a second', () => {
    const twice = bakePng(bakePng(png, JWT), `${JWT}x`)
    assert.equal(pngChunks(twice).filter((chunk) => chunk.type === 'iTXt').length, 1)
    assert.equal(unbakePng(twice).text, `${JWT}x`)
  })

  it('rejects what is not a PNG, naming the fault', () => {
    const cases: [Uint8Array, RegExp][] = [
      [new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), /signature/],
      [Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46), /signature/],
      [png.subarray(0, 8), /IHDR/],
      [png.subarray(0, 30), /runs past the end|truncated/],
      [png.subarray(0, png.length - 12), /no IEND/],
    ]
    for (const [bytes, fault] of cases)
      assert.throws(
        () => bakePng(bytes, JWT),
        (error: Error) => error instanceof TypeError && /not a PNG/.test(error.message) && fault.test(error.message),
      )
    assert.throws(() => readPngChunks('png' as unknown as Uint8Array), TypeError)
    assert.throws(() => bakePng(png, ''), /credential is empty/)
  })
})

describe('bakeSvg', () => {
  /** OB 3.0 "Baking", SVG: a VC-JWT goes in the `verify` attribute of an empty element. */
  const element = `<openbadges:credential verify="${JWT}"></openbadges:credential>`

  it('declares the namespace on the root and puts the credential first inside it, in its verify attribute', () => {
    const baked = bakeSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>', JWT)
    assert.equal(
      baked,
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" xmlns:openbadges="${OPENBADGES_NAMESPACE}">${element}<rect width="1" height="1"/></svg>`,
    )
    assert.equal(unbakeSvg(baked), JWT, 'a reader that follows the spec finds it')
  })

  it('finds the root after a declaration, comments and a DOCTYPE, and past a > inside an attribute value', () => {
    const svg = '<?xml version="1.0"?>\n<!-- <svg> in a comment -->\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg" data-x="a>b"><g/></svg>'
    const baked = bakeSvg(svg, JWT)
    assert.ok(
      baked.startsWith(
        '<?xml version="1.0"?>\n<!-- <svg> in a comment -->\n<!DOCTYPE svg>\n<svg xmlns="http://www.w3.org/2000/svg" data-x="a>b" xmlns:openbadges=',
      ),
    )
    assert.ok(baked.includes(`>${element}<g/></svg>`))
    assert.equal(unbakeSvg(baked), JWT)
  })

  it('opens an empty root and replaces an earlier credential and namespace declaration', () => {
    assert.equal(
      bakeSvg('<svg xmlns="http://www.w3.org/2000/svg"/>', JWT),
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:openbadges="${OPENBADGES_NAMESPACE}">${element}</svg>`,
    )
    const again = bakeSvg(bakeSvg('<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>', 'a.b.c'), JWT)
    assert.equal(again.match(/<openbadges:credential\b/g)?.length, 1)
    assert.equal(again.match(/xmlns:openbadges=/g)?.length, 1)
    assert.ok(again.includes(element))
    assert.equal(unbakeSvg(again), JWT)
  })

  it('replaces an earlier bake of any form: JWT as text, JSON in CDATA, an empty element, another prefix', () => {
    const ns = `xmlns:openbadges="${OPENBADGES_NAMESPACE}"`
    const earlier = [
      `<svg xmlns="http://www.w3.org/2000/svg" ${ns}><openbadges:credential>a.b.c</openbadges:credential><g/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" ${ns}>\n  <openbadges:credential><![CDATA[{"id":"urn:x","name":"a > b </x>"}]]></openbadges:credential>\n<g/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" ${ns}><openbadges:credential verify='a.b.c'/><g/></svg>`,
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:ob="${OPENBADGES_NAMESPACE}"><ob:credential verify="a.b.c"></ob:credential><g/></svg>`,
    ]
    for (const svg of earlier) {
      const baked = bakeSvg(svg, JWT)
      assert.equal(unbakeSvg(baked), JWT, baked)
      assert.equal(credentialElements(baked), 1, `one credential element: ${baked}`)
      assert.ok(baked.endsWith('<g/></svg>'), baked)
    }
  })

  it('the test reader reads both forms of the spec: verify first, else the body (embedded proof, JSON in CDATA)', () => {
    const ns = `xmlns:openbadges="${OPENBADGES_NAMESPACE}"`
    const embedded = `<svg xmlns="http://www.w3.org/2000/svg" ${ns}><openbadges:credential><![CDATA[{"id":"urn:x"}]]></openbadges:credential></svg>`
    assert.deepEqual(readBakedSvg(embedded), { verify: null, body: '{"id":"urn:x"}' })
    assert.throws(() => unbakeSvg(embedded), /no VC-JWT in the verify attribute/)
    assert.deepEqual(readBakedSvg(bakeSvg(embedded, JWT)), { verify: JWT, body: '' })
  })

  it('rejects a document whose root is not <svg> and a credential that is not a compact JWS', () => {
    assert.throws(() => bakeSvg('<html><svg/></html>', JWT), /root element is not <svg>/)
    assert.throws(() => bakeSvg('<svg width="1"', JWT), /not closed/)
    assert.throws(() => bakeSvg('<svg/>', 'not a jwt <script>'), /not a compact JWS/)
  })
})

describe('the default badge', () => {
  it('is an SVG the design upload rules accept (nothing active), with the initials and club name as text', async () => {
    const svg = defaultBadgeSvg({ templateName: '체스 <입문>', clubName: 'Chess & Go' })
    assert.equal(await imageProblem('image/svg+xml', new TextEncoder().encode(svg)), null)
    assert.match(svg, /aria-label="체스 &lt;입문&gt;"/, 'text is escaped')
    assert.match(svg, /Chess &amp; Go/)
    assert.deepEqual(['체스 입문', 'Chess basics', '체스', 'chess', '  ', '♞ 체스'].map(initialsOf), ['체입', 'CB', '체스', 'C', '★', '체스'])
  })

  it('is a 256 × 256 RGBA PNG the upload rules accept', async () => {
    const png = await defaultBadgePng()
    assert.equal(await imageProblem('image/png', png), null)
    const [ihdr] = pngChunks(png)
    assert.deepEqual([...ihdr!.data], [0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0])
  })
})

describe('baked badges of an issuance, un-baked and verified', () => {
  let api: Api
  before(async () => {
    api = await openApi()
  })
  after(() => api.close())

  /** The stored credential's JWT (docs/api.md §4.8), verified as docs/decisions/0014-signed-credential.md describes it. */
  async function storedJwt(issuanceId: number): Promise<string> {
    const jwt = (await api.call('GET', `/v2/clubs/${FILES_CLUB}/issuances/${issuanceId}/credential`)).body.data.jwt as string
    await assertSignedCredential(jwt, { keys: await clubKeys(api), email: EMAIL })
    return jwt
  }

  /** The club's keys; the first signing creates the key. */
  async function verifyBaked(jwt: string) {
    return assertSignedCredential(jwt, { keys: await clubKeys(api), email: EMAIL })
  }

  it('the default PNG badge carries the credential JWT, verified against the club key', async () => {
    const { issuanceId } = await issueOne(api, { recipient: { email: EMAIL } })
    await api.issuer.worker.drain()
    const response = await api.get(filePath(issuanceId, 'png'))
    assert.equal(response.status, 200)
    const chunks = pngChunks(response.bytes)
    for (const chunk of chunks) assert.equal(chunk.crc, zlibCrc32(Buffer.concat([Buffer.from(chunk.type, 'latin1'), chunk.data])), `${chunk.type} CRC`)
    assert.equal(chunks[1]!.type, 'iTXt')
    const found = unbakePng(response.bytes)
    assert.deepEqual({ ...found, text: '' }, { compressionFlag: 0, compressionMethod: 0, language: '', translated: '', text: '' })
    const checked = await verifyBaked(found.text)
    assert.equal(found.text, await storedJwt(issuanceId), 'the stored credential, byte for byte')
    assert.equal(checked.vc.credentialSubject.achievement.name, '체스 입문')
  })

  it('the default SVG badge carries the credential JWT as the first child of the root, in the OB 3.0 namespace', async () => {
    const { issuanceId } = await issueOne(api, { template: { name: '체스 중급' }, recipient: { email: EMAIL } })
    await api.issuer.worker.drain()
    const response = await api.get(filePath(issuanceId, 'svg'))
    assert.equal(response.status, 200)
    const jwt = unbakeSvg(response.text)
    const payload = await verifyWithDidDocument(api, jwt)
    assert.equal((payload.vc as Json).credentialSubject.achievement.name, '체스 중급')
    await verifyBaked(jwt)
    assert.equal(jwt, await storedJwt(issuanceId))
    assert.match(response.text, />체중</, 'the initials of the template as issued')
    assert.equal(await imageProblem('image/svg+xml', response.bytes), null, 'still nothing active')
  })

  it('a PNG badge design is baked as it is, and its SVG wraps the same PNG', async () => {
    const image = await encodePng({ width: 3, height: 1, pixels: Uint8Array.of(255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255) })
    const designId = await createDesign(api, { kind: 'badge', name: 'RGB', image: { mediaType: 'image/png', data: Buffer.from(image).toString('base64') } })
    const { issuanceId } = await issueOne(api, { template: { name: 'RGB badge', achievementBadgeDesignId: designId }, recipient: { email: EMAIL } })
    await api.issuer.worker.drain()
    const jwt = await storedJwt(issuanceId)

    const png = (await api.get(filePath(issuanceId, 'png'))).bytes
    assert.equal(unbakePng(png).text, jwt)
    const withoutCredential = pngChunks(png).filter((chunk) => chunk.type !== 'iTXt')
    assert.deepEqual(
      withoutCredential.map((chunk) => [chunk.type, [...chunk.data]]),
      pngChunks(image).map((chunk) => [chunk.type, [...chunk.data]]),
      'the design image, chunk for chunk',
    )
    const { vc } = await verifyBaked(unbakePng(png).text)
    assert.match(vc.credentialSubject.achievement.image.id, /\/images\/[0-9a-f]{64}$/, 'the credential names the badge image')

    const svg = (await api.get(filePath(issuanceId, 'svg'))).text
    assert.equal(unbakeSvg(svg), jwt)
    assert.ok(svg.includes(`href="data:image/png;base64,${Buffer.from(image).toString('base64')}"`), 'the PNG inside, as it is')
    assert.match(svg, /width="3" height="1"/)
  })

  it('an SVG badge design is baked as it is; it has no PNG (422 no-png-badge)', async () => {
    const design = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c00"/></svg>'
    const designId = await createDesign(api, {
      kind: 'badge',
      name: 'Red',
      image: { mediaType: 'image/svg+xml', data: Buffer.from(design).toString('base64') },
    })
    const { issuanceId } = await issueOne(api, { template: { name: 'Red badge', achievementBadgeDesignId: designId }, recipient: { email: EMAIL } })
    await api.issuer.worker.drain()
    const svg = (await api.get(filePath(issuanceId, 'svg'))).text
    assert.equal(unbakeSvg(svg), await storedJwt(issuanceId))
    await verifyWithDidDocument(api, unbakeSvg(svg))
    assert.equal(
      svg.replace(/ xmlns:openbadges="[^"]*"/, '').replace(/<openbadges:credential verify="[\w.-]*"><\/openbadges:credential>/, ''),
      design,
      'the design, untouched otherwise',
    )
    const body = assertProblem(await api.call('GET', filePath(issuanceId, 'png')), 422, 'validation-failed')
    assert.deepEqual(body.errors, [{ message: 'no-png-badge', path: 'format' }])
  })
})

/** Reads the OB 3.0 iTXt chunk as a validator would: keyword, flags, language, translated keyword, text. */
function unbakePng(png: Uint8Array) {
  const found = pngChunks(png).filter((chunk) => chunk.type === 'iTXt' && Buffer.from(chunk.data).indexOf(0) === 'openbadgecredential'.length)
  assert.equal(found.length, 1, 'one iTXt chunk with the keyword openbadgecredential')
  const data = Buffer.from(found[0]!.data)
  assert.equal(data.subarray(0, 19).toString('latin1'), 'openbadgecredential')
  const languageEnd = data.indexOf(0, 22)
  const translatedEnd = data.indexOf(0, languageEnd + 1)
  return {
    compressionFlag: data[20],
    compressionMethod: data[21],
    language: data.subarray(22, languageEnd).toString('latin1'),
    translated: data.subarray(languageEnd + 1, translatedEnd).toString('utf8'),
    text: data.subarray(translatedEnd + 1).toString('utf8'),
  }
}

/**
 * Reads the baked credential of an SVG as a reader that follows OB 3.0 "Baking" (SVG) does: parse it as
 * XML, take the first child element of the root, which must be `{https://purl.imsglobal.org/ob/v3p0}credential`
 * (prefixes do not matter: names resolve through their namespace), and read both forms the spec knows:
 * the `verify` attribute (a VC-JWT) first, then the element's text (an embedded-proof credential, JSON).
 */
function readBakedSvg(svg: string): { verify: string | null; body: string } {
  const document = new DOMParser().parseFromString(svg, 'image/svg+xml')
  const root = document.documentElement
  assert.ok(root, 'an XML document')
  assert.equal(root.localName, 'svg')
  let first = root.firstChild
  while (first && first.nodeType !== 1) first = first.nextSibling
  const credential = first as unknown as {
    namespaceURI: string | null
    localName: string
    getAttribute(name: string): string | null
    textContent: string | null
  } | null
  assert.ok(credential, 'the root has a child element')
  assert.equal(`{${credential.namespaceURI}}${credential.localName}`, `{${OPENBADGES_NAMESPACE}}credential`, 'the first child of <svg> is the credential')
  const verify = credential.getAttribute('verify')
  return { verify: verify === '' ? null : verify, body: (credential.textContent ?? '').trim() }
}

/** The VC-JWT of a baked SVG: clubcred signs VC-JWTs only, so it must be in `verify`, the element empty. */
function unbakeSvg(svg: string): string {
  const { verify, body } = readBakedSvg(svg)
  assert.ok(verify, `no VC-JWT in the verify attribute; the element holds ${JSON.stringify(body.slice(0, 80))}`)
  assert.equal(body, '', 'a VC-JWT leaves the element empty')
  return verify
}

/** How many elements `{OB 3.0}credential` the SVG holds, anywhere. */
function credentialElements(svg: string): number {
  const document = new DOMParser().parseFromString(svg, 'image/svg+xml')
  return document.getElementsByTagNameNS(OPENBADGES_NAMESPACE, 'credential').length
}

/**
 * Verifies a JWT as an outside verifier would, with jose against the club's published DID document: the
 * verification method the header's `kid` names, its `publicKeyJwk`, ES256.
 */
async function verifyWithDidDocument(api: Api, jwt: string) {
  const didDocument = (await api.get(`/open-badges/v3/issuers/${FILES_CLUB}/did.json`)).json
  const { kid } = decodeProtectedHeader(jwt)
  const method = didDocument.verificationMethod.find((candidate: { id: string }) => candidate.id === kid)
  assert.ok(method, `the DID document lists ${kid}`)
  assert.ok(didDocument.assertionMethod.includes(kid), 'as an assertion method')
  const { payload } = await jwtVerify(jwt, await importJWK(method.publicKeyJwk, 'ES256'), { algorithms: ['ES256'], issuer: didDocument.id })
  return payload
}

function clubKeys(api: Api) {
  return api.keys.publicKeys(`club:${FILES_CLUB}`)
}
