import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isIpLiteral, isPublicAddress } from '../../../core/webhooks/address.ts'

/**
 * The address guard, address by address: every encoding a webhook URL or a DNS answer can carry, with
 * its verdict. `true` is public unicast; everything else is refused.
 * @see The webhook address guard (6to4, Teredo, IPv4-translated and discard-only addresses passed as public)
 */
const TABLE: [address: string, isPublic: boolean, why: string][] = [
  // IPv4, public
  ['8.8.8.8', true, 'public unicast'],
  ['93.184.216.34', true, 'public unicast'],
  ['172.32.0.1', true, 'just past 172.16.0.0/12'],
  ['100.128.0.1', true, 'just past 100.64.0.0/10'],
  ['198.20.0.1', true, 'just past 198.18.0.0/15'],
  ['134744072', true, '8.8.8.8 as one decimal number'],
  // IPv4 loopback in every spelling inet_aton and WHATWG URL read
  ['127.0.0.1', false, 'loopback'],
  ['127.8.9.1', false, 'loopback, all of 127.0.0.0/8'],
  ['2130706433', false, 'loopback, decimal'],
  ['0177.0.0.1', false, 'loopback, octal'],
  ['017700000001', false, 'loopback, one octal number'],
  ['0x7f.0.0.1', false, 'loopback, hex'],
  ['0x7f000001', false, 'loopback, one hex number'],
  ['0x7F.1', false, 'loopback, hex and shortened'],
  ['127.1', false, 'loopback, shortened'],
  // IPv4 special ranges
  ['0.0.0.0', false, 'unspecified'],
  ['0.1.2.3', false, '"this" network, 0.0.0.0/8'],
  ['10.1.2.3', false, 'private'],
  ['0xa.0.0.1', false, 'private, hex'],
  ['172.16.0.1', false, 'private'],
  ['172.31.255.255', false, 'private'],
  ['192.168.1.1', false, 'private'],
  ['3232235777', false, '192.168.1.1, decimal'],
  ['169.254.169.254', false, 'link-local, cloud metadata'],
  ['0xa9fea9fe', false, 'link-local metadata, one hex number'],
  ['100.64.0.1', false, 'shared address space (CGNAT), 100.64.0.0/10'],
  ['100.127.255.254', false, 'shared address space, its top'],
  ['198.18.0.1', false, 'benchmarking, 198.18.0.0/15'],
  ['198.19.255.255', false, 'benchmarking, its top'],
  ['192.0.0.8', false, 'IETF protocol assignments, 192.0.0.0/24'],
  ['192.0.2.1', false, 'documentation, TEST-NET-1'],
  ['198.51.100.1', false, 'documentation, TEST-NET-2'],
  ['203.0.113.1', false, 'documentation, TEST-NET-3'],
  ['192.88.99.1', false, '6to4 relay anycast'],
  ['224.0.0.1', false, 'multicast'],
  ['239.255.255.250', false, 'multicast, SSDP'],
  ['240.0.0.1', false, 'reserved, 240.0.0.0/4'],
  ['255.255.255.255', false, 'broadcast'],
  // IPv6, public
  ['2606:4700::1111', true, 'public unicast'],
  ['[2606:4700::1111]', true, 'public unicast, bracketed as in a URL'],
  ['2a00:1450:4001:80b::200e', true, 'public unicast'],
  ['::ffff:8.8.8.8', true, 'IPv4-mapped public, dotted'],
  ['::ffff:808:808', true, 'IPv4-mapped public, hex'],
  ['64:ff9b::8.8.8.8', true, 'NAT64 of a public IPv4 (DNS64)'],
  ['64:ff9b::808:808', true, 'NAT64 of a public IPv4, hex'],
  // IPv6 special ranges
  ['::1', false, 'loopback'],
  ['[::1]', false, 'loopback, bracketed'],
  ['0:0:0:0:0:0:0:1', false, 'loopback, uncompressed'],
  ['::', false, 'unspecified'],
  ['fe80::1', false, 'link-local'],
  ['fe80::1%eth0', false, 'link-local with a zone'],
  ['fec0::1', false, 'site-local, deprecated'],
  ['fc00::1', false, 'unique local'],
  ['fd00:ec2::254', false, 'unique local, AWS metadata'],
  ['ff02::1', false, 'multicast'],
  ['ff05::1:3', false, 'multicast'],
  ['2001:db8::1', false, 'documentation'],
  ['3fff::1', false, 'documentation, 3fff::/20'],
  ['2001:2::1', false, 'benchmarking'],
  ['100::1', false, 'discard-only, 100::/64'],
  ['4000::1', false, 'outside 2000::/3, unallocated'],
  ['5f00::1', false, 'segment routing'],
  // IPv6 forms that carry an IPv4 address
  ['::ffff:127.0.0.1', false, 'IPv4-mapped loopback, dotted'],
  ['::ffff:7f00:1', false, 'IPv4-mapped loopback, hex'],
  ['::ffff:10.0.0.1', false, 'IPv4-mapped private'],
  ['::ffff:169.254.169.254', false, 'IPv4-mapped metadata'],
  ['::ffff:0:7f00:1', false, 'IPv4-translated loopback, ::ffff:0:0:0/96'],
  ['::ffff:0:808:808', false, 'IPv4-translated, refused whole'],
  ['::127.0.0.1', false, 'IPv4-compatible loopback, dotted'],
  ['::7f00:1', false, 'IPv4-compatible loopback, hex'],
  ['::8.8.8.8', false, 'IPv4-compatible, deprecated: refused whole'],
  ['2002:7f00:1::', false, '6to4 of loopback'],
  ['2002:a00:1::', false, '6to4 of 10.0.0.1'],
  ['2002:808:808::1', false, '6to4, refused whole'],
  ['2001:0::1', false, 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false, 'Teredo, a real-looking client'],
  ['64:ff9b::7f00:1', false, 'NAT64 of loopback'],
  ['64:ff9b::127.0.0.1', false, 'NAT64 of loopback, dotted'],
  ['64:ff9b::a9fe:a9fe', false, 'NAT64 of the metadata address'],
  ['64:ff9b::a00:1', false, 'NAT64 of a private address'],
  ['64:ff9b:1::808:808', false, 'NAT64 local use, 64:ff9b:1::/48'],
  // Not an address at all
  ['example.com', false, 'a name'],
  ['localhost', false, 'a name'],
  ['', false, 'nothing'],
  ['1.2.3.4:80', false, 'with a port'],
  ['1.2.3.4/x', false, 'with a path'],
  ['08.0.0.1', false, 'invalid octal'],
  ['256.1.1.1', false, 'octet out of range'],
]

describe('the webhook address guard', () => {
  it('holds a table of at least 40 addresses in every encoding', () => {
    assert.ok(TABLE.length >= 40, `${TABLE.length} addresses`)
  })

  for (const [address, expected, why] of TABLE) {
    it(`${JSON.stringify(address)} is ${expected ? 'public' : 'refused'}: ${why}`, () => {
      assert.equal(isPublicAddress(address), expected)
    })
  }

  it('knows an IP literal in any encoding from a name', () => {
    for (const host of ['2130706433', '0x7f.1', '127.1', '[::1]', '::ffff:0:7f00:1', '8.8.8.8']) assert.equal(isIpLiteral(host), true, host)
    for (const host of ['example.com', 'a.localhost', '1.2.3.4.example', '']) assert.equal(isIpLiteral(host), false, host)
  })
})
