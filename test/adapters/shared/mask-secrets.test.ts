/**
 * The masking under the log (docs/logs.md § What never enters a line), form by form: the credentials a
 * careless client or a log line carries, the ways they used to slip through (`basic` inside a word,
 * `Basic:` and `Basic%20`, a header cut before masking, a password holding `@`), and text that must stay
 * as it is. The server-process side is test/server/log-lines.test.ts.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { holdsSecret, maskedExcerpt, maskSecrets } from '../../../adapters/shared/mask-secrets.ts'
import { acceptedRequestId } from '../../../adapters/http/request-id.ts'

const CLIENT_ID = 'cc_057010109b1a72a3b9c09ef2'
const CLIENT_SECRET = 'ccs__7Q5HP7W6j_-DHn2Mv6Rvr-oqs_5Noc04SeYPwy3CSc'
const BASIC = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')
/** Basic credentials of another service (not a clubcred client): only the scheme word gives them away. */
const OTHER_BASIC = Buffer.from('deploy:hunter2-hunter2').toString('base64')
const JWT =
  'eyJhbGciOiJFZERTQSIsImtpZCI6ImsxIn0.eyJjbHViIjoiY2hlc3MiLCJzY29wZSI6Imlzc3VhbmNlczp3cml0ZSIsInN1YiI6ImtpbUBleGFtcGxlLm9yZyJ9.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmU'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe('maskSecrets', () => {
  const masked: [what: string, text: string, expected: string][] = [
    ['Basic after a word ending in "basic"', `ua-basic Basic ${BASIC}`, 'ua-basic Basic [redacted]'],
    ['Basic after a word ending in "basic", other credentials', `ua-basic Basic ${OTHER_BASIC}`, 'ua-basic Basic [redacted]'],
    ['Basic with a colon', `probe Basic:${OTHER_BASIC}`, 'probe Basic [redacted]'],
    ['Basic with %20', `probe Basic%20${OTHER_BASIC}`, 'probe Basic [redacted]'],
    ['Basic with +', `probe Basic+${OTHER_BASIC}`, 'probe Basic [redacted]'],
    ['Basic with =', `auth=basic=${OTHER_BASIC}`, 'auth=basic [redacted]'],
    ['Basic with %3A and spaces', `probe BASIC%3A  ${OTHER_BASIC}`, 'probe BASIC [redacted]'],
    ['"basic basic" before the credentials', `my basic Basic ${OTHER_BASIC}`, 'my basic Basic [redacted]'],
    ['percent-encoded credentials', `Basic ${OTHER_BASIC.replace(/=/g, '%3D')} then`, 'Basic [redacted] then'],
    ["a clubcred client's credentials in base64, no scheme", `creds=${BASIC};`, 'creds=[secret];'],
    ["a clubcred client's credentials in base64, after a made-up scheme", `Token ${BASIC}`, 'Token [secret]'],
    ['Bearer', 'Bearer abc.def-ghi', 'Bearer [redacted]'],
    ['a JWT in free text', `token ${JWT} expired`, 'token [token] expired'],
    ['a JWT after =', `?access_token=${JWT}&x=1`, '?access_token=[token]&x=1'],
    ['a client secret', `client ${CLIENT_SECRET} refused`, 'client [secret] refused'],
    ['a client secret after _', `x_${CLIENT_SECRET}`, 'x_[secret]'],
    ['a legacy API key', 'cck_0123456789abcdef.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_abcde', '[secret]'],
    ['a webhook secret', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw+/ab==', '[secret]'],
    ['a URL with user and password', 'smtp://mailer:hunter22@mail.example.com:587', 'smtp://[redacted]@mail.example.com:587'],
    [
      'a database URL whose password holds @',
      'connect postgres://clubcred:p@ss@w0rd@db.example.net:5432/clubcred failed',
      'connect postgres://[redacted]@db.example.net:5432/clubcred failed',
    ],
    ['a database URL whose password holds @ and /', 'postgres://app:a/b@c@db:5432/x', 'postgres://[redacted]@db:5432/x'],
    ['an e-mail address', 'mail to kim.lee@example.org failed', 'mail to [email] failed'],
  ]
  for (const [what, text, expected] of masked) {
    it(`masks ${what}`, () => {
      assert.equal(maskSecrets(text), expected)
      assert.equal(holdsSecret(text), true)
    })
  }

  const kept = [
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
    'ua-basic/1.0',
    'basically fine',
    'token_type Bearer',
    'application/json; charset=utf-8',
    'https://clubcred.example/v2/clubs/demo/issuances/12',
    'f47954d6-98e1-4c89-b717-6d9e9f407d2f',
    'edge-7f3a.9_B',
    '    at Socket.closed (file:///srv/node_modules/postgres/src/connection.js:453:57)',
    '    at parse (file:///srv/node_modules/@pdf-lib/fontkit/dist/fontkit.js:12:3)',
  ]
  for (const text of kept) {
    it(`keeps ${JSON.stringify(text)}`, () => assert.equal(maskSecrets(text), text))
  }
})

describe('maskedExcerpt', () => {
  it('masks a header whole, then cuts it: a JWT across the cut shows none of its claims', () => {
    const header = `probe/1.0 (${'x'.repeat(180)}) ${JWT}`
    assert.ok(header.indexOf(JWT) < 200 && header.indexOf(JWT) + JWT.length > 200, 'the JWT crosses character 200')
    const excerpt = maskedExcerpt(header, 200)
    assert.equal(excerpt, `probe/1.0 (${'x'.repeat(180)}) [token]`)
    assert.ok(!excerpt.includes('eyJ'))
  })

  it('cuts to the length asked', () => {
    assert.equal(maskedExcerpt('y'.repeat(500), 200), 'y'.repeat(200))
  })
})

describe('acceptedRequestId', () => {
  for (const secret of [
    CLIENT_SECRET,
    'cck_0123456789abcdef.AbCdEfGhIjKlMnOpQr',
    `edge-${CLIENT_SECRET}`,
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
    `${BASIC.replace(/=/g, '')}`,
  ]) {
    it(`refuses ${secret.slice(0, 12)}… shaped like a secret, for a new id`, () => {
      assert.match(acceptedRequestId(secret), UUID)
    })
  }
  for (const id of ['f47954d6-98e1-4c89-b717-6d9e9f407d2f', 'edge-7f3a.9_B', '0af7651916cd43dd8448eb211c80319c', 'req_basic-1']) {
    it(`keeps ${id}`, () => assert.equal(acceptedRequestId(id), id))
  }
})
