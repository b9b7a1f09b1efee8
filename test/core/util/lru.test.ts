import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Lru } from '../../../core/util/lru.ts'

test('the least recently set entry is dropped first', () => {
  const lru = new Lru<string, number>(2).set('a', 1).set('b', 2).set('c', 3)
  assert.deepEqual([...lru.keys()], ['b', 'c'])
  assert.equal(lru.get('a'), undefined)
})

test('get refreshes recency', () => {
  const lru = new Lru<string, number>(2).set('a', 1).set('b', 2)
  assert.equal(lru.get('a'), 1)
  lru.set('c', 3)
  assert.deepEqual([...lru.keys()], ['a', 'c'])
})

test('setting an existing key replaces it without growing', () => {
  const lru = new Lru<string, number>(2).set('a', 1).set('b', 2).set('a', 3)
  assert.equal(lru.size, 2)
  assert.deepEqual([...lru.keys()], ['b', 'a'])
  assert.equal(lru.get('a'), 3)
})

test('a capacity of 1 keeps only the last entry', () => {
  const lru = new Lru<string, number>(1).set('a', 1).set('b', 2)
  assert.deepEqual([...lru.keys()], ['b'])
})

test('a capacity that is not a positive integer is refused', () => {
  for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) assert.throws(() => new Lru(bad), TypeError)
})
