/**
 * The Accept rule of the two forms (docs/data-integrity.md § Negotiation): the JSON-LD form when a request
 * names one of its media types and weighs no JWT type higher, or reaches one through a wildcard and
 * weighs every JWT type lower.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { acceptsJwt, jsonLdMediaType, wantsJsonLd } from '../../../adapters/http/json-ld-negotiation.ts'

describe('wantsJsonLd', () => {
  it('each JSON-LD media type asked for alone selects the JSON-LD form, answered as that type', () => {
    for (const type of ['application/ld+json', 'application/vc+ld+json', 'application/vc', 'application/json']) {
      assert.equal(wantsJsonLd(type), true, type)
      assert.equal(jsonLdMediaType(type), type)
    }
  })

  it('no Accept, an empty one, */* and the JWT types keep the JWT', () => {
    for (const accept of [null, '', '   ', '*/*', 'text/plain', 'text/*', 'application/jwt', 'application/vc+jwt', 'application/*', 'image/png']) {
      assert.equal(wantsJsonLd(accept), false, String(accept))
    }
  })

  it('a JSON-LD type named with the weight of the JWT gets the JSON-LD form; a wildcard with that weight does not', () => {
    for (const accept of [
      'application/json, text/plain, */*',
      'application/ld+json, application/jwt',
      'application/ld+json, */*',
      'application/vc;q=0.5, text/plain;q=0.5',
    ]) {
      assert.equal(wantsJsonLd(accept), true, accept)
    }
    for (const accept of ['*/*, text/plain', 'application/*, application/jwt', 'text/plain;q=0.5, */*;q=0.5']) {
      assert.equal(wantsJsonLd(accept), false, accept)
    }
  })

  it('the higher weight wins between the JWT and the JSON-LD form', () => {
    assert.equal(jsonLdMediaType('application/ld+json, */*;q=0.8'), 'application/ld+json')
    assert.equal(jsonLdMediaType('text/plain;q=0.4, application/vc+ld+json;q=0.5'), 'application/vc+ld+json')
    assert.equal(jsonLdMediaType('application/ld+json;q=0.5, application/jwt'), null)
    assert.equal(jsonLdMediaType('application/json;q=0.9, application/*;q=0.1'), 'application/json')
  })

  it('q=0 means not acceptable: an excluded type is never chosen, and a range excluding the JWT lets JSON-LD through', () => {
    assert.equal(jsonLdMediaType('application/ld+json;q=0'), null)
    assert.equal(jsonLdMediaType('application/ld+json;q=0.000, */*'), null)
    assert.equal(jsonLdMediaType('*/*, text/plain;q=0, application/jwt;q=0, application/vc+jwt;q=0'), 'application/ld+json')
    assert.equal(jsonLdMediaType('application/*, application/ld+json;q=0, application/jwt;q=0, application/vc+jwt;q=0'), 'application/vc+ld+json')
  })

  it('the most specific range decides a type’s weight, whatever the order', () => {
    assert.equal(jsonLdMediaType('application/ld+json;q=0.2, application/*;q=1, text/plain;q=0.5'), null, 'application/* reaches application/jwt too')
    assert.equal(jsonLdMediaType('application/ld+json;q=0.2, application/*, application/jwt;q=0.5, application/vc+jwt;q=0.5'), 'application/vc+ld+json')
    assert.equal(jsonLdMediaType('text/plain;q=0.1, */*;q=0.9'), null, '*/* still weighs application/jwt 0.9')
    assert.equal(jsonLdMediaType('text/plain;q=0.1, application/jwt;q=0.1, */*;q=0.9, application/vc+jwt;q=0.1'), 'application/ld+json')
  })

  it('among JSON-LD types of equal weight, the one named outright wins over one a wildcard reaches', () => {
    assert.equal(jsonLdMediaType('application/vc;q=0.5, */*;q=0.5, text/plain;q=0, application/jwt;q=0, application/vc+jwt;q=0'), 'application/vc')
    assert.equal(jsonLdMediaType('application/json, application/vc'), 'application/vc')
  })

  it('parameters: case, spaces, a profile with a quoted comma, an accept extension after q', () => {
    assert.equal(jsonLdMediaType('Application/LD+JSON ; Q=1'), 'application/ld+json')
    assert.equal(jsonLdMediaType('application/ld+json; profile="https://www.w3.org/ns/credentials/v2,x;y"; q=0.9, text/plain;q=0.8'), 'application/ld+json')
    assert.equal(jsonLdMediaType('application/ld+json;q=0.9;ext=1, text/plain;q=0.95'), null)
    assert.equal(jsonLdMediaType('text/plain; charset=utf-8, application/ld+json'), 'application/ld+json')
    assert.equal(jsonLdMediaType('text/plain; charset=utf-8, application/ld+json;q=0.999'), null)
  })

  it('malformed ranges are left out and the rest still counts; nothing readable means anything, so the JWT', () => {
    assert.equal(jsonLdMediaType('garbage, application/ld+json'), 'application/ld+json')
    assert.equal(jsonLdMediaType('application/ld+json;q=2, text/plain;q=0.5'), null, 'a weight above 1 is no qvalue: the range is dropped')
    assert.equal(jsonLdMediaType('application/ld+json;q=abc'), null)
    assert.equal(jsonLdMediaType('*/ld+json'), null)
    assert.equal(jsonLdMediaType(',,;'), null)
  })

  it('reads the Accept of a Request', () => {
    assert.equal(wantsJsonLd(new Request('https://example.org/', { headers: { accept: 'application/ld+json' } })), true)
    assert.equal(wantsJsonLd(new Request('https://example.org/')), false)
  })
})

describe('acceptsJwt', () => {
  it('no Accept, a JWT type or a wildcard reaching one takes the JWT; JSON-LD types alone, or the JWT types refused, do not', () => {
    for (const accept of [
      null,
      '',
      'text/plain',
      'application/jwt',
      '*/*',
      'application/*',
      'application/ld+json, */*;q=0.1',
      'application/json, text/plain, */*',
    ]) {
      assert.equal(acceptsJwt(accept), true, String(accept))
    }
    for (const accept of [
      'application/ld+json',
      'application/ld+json, application/json',
      'application/vc',
      '*/*, text/plain;q=0, application/jwt;q=0, application/vc+jwt;q=0',
    ]) {
      assert.equal(acceptsJwt(accept), false, accept)
    }
  })
})
