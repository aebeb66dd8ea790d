import { NodeContentHasher } from '../../../src/adapters/outbound/node-content-hasher.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('NodeContentHasher', () => {
  const hasher = new NodeContentHasher();

  it.each([
    ['md5', 'd6eb32081c822ed572b70567826d9d9d'],
    ['sha1', '4fe2b8dd12cd9cd6a413ea960cd8c09c25f19527'],
    ['sha256', 'a1fff0ffefb9eace7230c24e50731f0a91c62f9cefdfe77121c2f607125dffae'],
  ] as const)('computes %s in lower-case hex', (algorithm, expected) => {
    const hash = hasher.create(algorithm);
    hash.update(bytes('test content\n'));
    expect(hash.digest()).toBe(expected);
  });

  it('gives the same digest for the content fed in several chunks', () => {
    const whole = hasher.create('sha256');
    whole.update(bytes('hello world'));
    const chunked = hasher.create('sha256');
    for (const part of ['hel', 'lo w', 'orld']) chunked.update(bytes(part));
    expect(chunked.digest()).toBe(whole.digest());
  });
});
