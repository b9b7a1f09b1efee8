/**
 * fast-check arbitraries of the documents clubcred secures with Data Integrity proofs, made by the code
 * that makes them in the product: OB 3.0 credentials by `createOb3Builder` (core/credentials/build-ob3.ts)
 * over every field it engraves, and Bitstring Status List credentials in the shape of
 * core/status-lists/credential.ts. Text in many scripts, emoji, combining marks, right-to-left marks,
 * quotes, backslashes, line feeds and other controls, lone surrogates; URLs with percent-encoding and
 * non-ASCII; evidence, expiry, co-issuers (with a url and without), many tags, optional fields absent. For the differential test of
 * the fast path (test/adapters/data-integrity-quads.test.ts) and its long run (bench/data-integrity-differential.bench.ts).
 */
import fc from 'fast-check'
import { ACHIEVEMENT_TYPES } from '../../core/achievements/achievement-type.ts'
import { createOb3Builder } from '../../core/credentials/build-ob3.ts'
import { hashedEmailIdentity } from '../../core/credentials/recipient-identity.ts'
import { imageUrl, skillUrl, statusListUrl } from '../../core/credentials/urls.ts'
import { clubDid } from '../../core/did-documents/did.ts'
import { resolveConfig } from '../../core/config.ts'
import type { TemplateView } from '../../core/achievements/present.ts'
import type { Evidence } from '../../core/issuances/issuance.ts'

/** Text as people type it, and as they should not. */
const pieces = fc.constantFrom(
  '체스 입문',
  '바둑 — 초급',
  '日本語のテキスト',
  'Ελληνικά',
  'Русский текст',
  'עברית',
  'العربية \u200f',
  '\u202eRTL override\u202c',
  'e\u0301te\u0301',
  'Å\u030a',
  'क्षत्रिय',
  '😀🏳️‍🌈👩‍👩‍👧',
  '"quoted"',
  "it's",
  'back\\slash',
  '\\"',
  'line\nfeed',
  'carriage\r\nreturn',
  'tab\there',
  'nul\u0000byte',
  '\u0007\u001b\u007f\u0085',
  '\u2028\u2029',
  '\ud800 lone',
  '\udfff',
  '<b>&amp;</b>',
  '  padded  ',
  '',
)
export const text = fc.oneof(
  { weight: 3, arbitrary: fc.array(pieces, { maxLength: 3 }).map((parts) => parts.join(' ')) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
)

/** URLs as clubcred stores them: absolute http(s), percent-encoded, some with non-ASCII left in. */
export const url = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'https://chess.example/games/1',
    'https://example.org/%ED%95%9C%EA%B8%80?q=%E2%9C%93#top',
    'https://例え.jp/경로?q=✓',
    'http://xn--bcher-kva.example/b%C3%BCcher',
    'https://p.example/a%20b/c%2Fd',
    'https://p.example/(paren)/[bracket]',
    "https://p.example/it's;x=1,2",
  ),
)

const config = resolveConfig({
  urls: {
    base: 'https://badges.example',
    auth: 'https://badges.example/oauth',
    public: 'https://badges.example',
    shareHost: 'badges.example',
    legacyBase: 'https://badges.example',
  },
})

/** Tags name skill pages (their URL path), so the inputs allow no lone surrogate in them. */
const tag = fc.oneof(text, fc.constantFrom('chess', 'go', '체스', 'a b', 'x/y', '50%')).filter(wellFormed)

function wellFormed(value: string): boolean {
  try {
    encodeURIComponent(value)
    return true
  } catch {
    return false
  }
}

/** A partner may have no url: its `id` then reads `null`, and the credential engraves it without one (docs/decisions/0051-one-csv-path-and-no-null-id.md). */
const partner = fc.record({ name: text, url: fc.option(url, { nil: null, freq: 3 }), isVerified: fc.boolean() })

const evidence: fc.Arbitrary<Evidence> = fc.record({
  url: fc.option(url, { nil: null }),
  name: fc.option(text, { nil: null }),
  description: fc.option(text, { nil: null }),
  isPublic: fc.boolean(),
})

/** The `vc` of a credential clubcred issues, as the JWT carries it. */
export const openBadgeCredential: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    club: fc.record({ domain: fc.constantFrom('chess', 'go-club', 'a1'), name: text, issuerVerified: fc.boolean() }),
    templateId: fc.integer({ min: 1, max: 1e9 }),
    name: text,
    imprintDescription: text,
    narrative: text,
    achievementType: fc.constantFrom(...Object.values(ACHIEVEMENT_TYPES)),
    tags: fc.array(tag, { maxLength: 12 }),
    image: fc.option(fc.stringMatching(/^[0-9a-f]{64}$/), { nil: null }),
    partners: fc.array(partner, { maxLength: 4 }),
    credentialId: fc.uuid(),
    issuedAt: fc.integer({ min: 0, max: 4e9 }).map((seconds) => seconds * 1000),
    validFor: fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: null }),
    // A reissued version carries the first version's date (docs/decisions/0046-reissue.md).
    awardedBefore: fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: null }),
    email: fc.emailAddress(),
    salt: fc.uint8Array({ minLength: 16, maxLength: 16 }),
    evidences: fc.array(evidence, { maxLength: 4 }),
    listId: fc.integer({ min: 1, max: 1000 }),
    first: fc.boolean(),
    index: fc.integer({ min: 0, max: 131071 }),
  })
  .map((c) => {
    const did = clubDid(config, c.club.domain)
    const snapshot = {
      id: c.templateId,
      name: c.name,
      imprintDescription: c.imprintDescription,
      criteria: { narrative: c.narrative, requirements: [] },
      achievementType: c.achievementType,
      tag: c.tags,
      alignment: c.tags.map((name) => ({ type: ['Alignment'], targetName: name, targetUrl: skillUrl(config, name), targetType: 'ext:SkillTag' })),
      image: c.image ? imageUrl(config, c.image) : null,
      coIssuers: [
        { id: did, name: c.club.name, url: null, role: 'representative', isVerified: c.club.issuerVerified },
        ...c.partners.map((p) => ({ id: p.url, name: p.name, url: p.url, role: 'partner', isVerified: p.isVerified })),
      ],
    } as unknown as TemplateView
    const build = createOb3Builder(config, { domain: c.club.domain, name: c.club.name } as Parameters<typeof createOb3Builder>[1], did, snapshot)
    const claims = build({
      credentialId: c.credentialId,
      issuedAt: c.issuedAt,
      validUntil: c.validFor === null ? null : c.issuedAt + c.validFor * 1000,
      awardedAt: c.awardedBefore === null ? null : c.issuedAt - c.awardedBefore * 1000,
      identity: hashedEmailIdentity(c.email, c.salt),
      evidences: c.evidences,
      status: { listUrl: statusListUrl(config, c.club.domain, { id: c.listId, first: c.first }), index: c.index },
    })
    return (JSON.parse(claims) as { vc: Record<string, unknown> }).vc
  })

/** The club's Bitstring Status List credential (core/status-lists/credential.ts). */
export const statusListCredential: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    domain: fc.constantFrom('chess', 'go-club'),
    listId: fc.integer({ min: 1, max: 1000 }),
    first: fc.boolean(),
    issuedAt: fc.integer({ min: 0, max: 4e9 }),
    encodedList: fc.stringMatching(/^u[A-Za-z0-9_-]{0,200}$/),
  })
  .map((s) => {
    const id = statusListUrl(config, s.domain, { id: s.listId, first: s.first })
    return {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      id,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: clubDid(config, s.domain),
      validFrom: new Date(s.issuedAt * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      credentialSubject: { id: `${id}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', encodedList: s.encodedList },
    }
  })
