import { createHash } from 'node:crypto';
import { NodeContentHasher } from '../../../src/adapters/outbound/node-content-hasher.js';
import { entryChangeFrom, RootKeys } from '../../../src/domain/changes/root-keys.js';
import { makeRoot } from '../../support/roots.js';

const KEY = '0123456789abcdef';

describe('RootKeys', () => {
  it('names a root by its directory, the same under any name and on any replica, never by its path', () => {
    const keys = new RootKeys(new NodeContentHasher());
    const key = keys.of(makeRoot('workspace', '/srv/ws'));
    expect(key).toBe(createHash('sha256').update('/srv/ws').digest('hex').slice(0, 16));
    expect(new RootKeys(new NodeContentHasher()).of(makeRoot('renamed', '/srv/ws'))).toBe(key);
    expect(keys.of(makeRoot('workspace', '/srv/other'))).not.toBe(key);
  });
});

describe('entryChangeFrom (a change received from another replica)', () => {
  it('takes a root key and one or two in-root paths of plain segments', () => {
    expect(entryChangeFrom({ origin: 'x', rootKey: KEY, paths: [['src', 'a.txt']] })).toEqual({ rootKey: KEY, paths: [['src', 'a.txt']] });
    expect(entryChangeFrom({ rootKey: KEY, paths: [[], ['b']] })).toEqual({ rootKey: KEY, paths: [[], ['b']] });
  });

  it.each([
    ['not an object', 'text'],
    ['null', null],
    ['a host path as the key', { rootKey: '/srv/ws', paths: [['a']] }],
    ['a key of the wrong form', { rootKey: 'ABCDEF0123456789', paths: [['a']] }],
    ['no paths', { rootKey: KEY, paths: [] }],
    ['three paths', { rootKey: KEY, paths: [['a'], ['b'], ['c']] }],
    ['a path that is not a list', { rootKey: KEY, paths: ['a/b'] }],
    ['a host path as a segment', { rootKey: KEY, paths: [['/etc/passwd']] }],
    ['..', { rootKey: KEY, paths: [['..', 'etc']] }],
    ['.', { rootKey: KEY, paths: [['.']] }],
    ['an empty segment', { rootKey: KEY, paths: [['a', '']] }],
    ['a NUL', { rootKey: KEY, paths: [['a\0b']] }],
    ['a segment that is not text', { rootKey: KEY, paths: [[7]] }],
    ['a segment past 255 bytes', { rootKey: KEY, paths: [['é'.repeat(128)]] }],
  ])('Security: refuses %s', (_what, value) => {
    expect(entryChangeFrom(value)).toBeNull();
  });
});
