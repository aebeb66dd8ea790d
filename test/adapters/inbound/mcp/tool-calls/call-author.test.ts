import { AsyncLocalStorage } from 'node:async_hooks';
import { jest } from '@jest/globals';
import { AsyncLocalChangeAuthor } from '../../../../../src/adapters/inbound/mcp/tool-calls/call-author.js';
import type { ChangeAuthor } from '../../../../../src/domain/ports/change-journal.port.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const author = (principal: string, session: string, tool: string): ChangeAuthor => ({ principal, session, tool });

/** The author a call sees at its start and across awaits of both kinds, however the calls interleave. */
async function seenAcrossAwaits(authors: AsyncLocalChangeAuthor, who: ChangeAuthor, unrestricted = true, during?: () => Promise<unknown>): Promise<(ChangeAuthor | undefined)[]> {
  return authors.run(who, unrestricted, async () => {
    const seen = [authors.current()];
    await tick();
    seen.push(authors.current());
    await during?.();
    await Promise.resolve();
    seen.push(authors.current());
    await tick();
    seen.push(authors.current());
    return seen;
  });
}

describe('AsyncLocalChangeAuthor', () => {
  afterEach(() => jest.restoreAllMocks());

  it('names no one outside a call', () => {
    expect(new AsyncLocalChangeAuthor().current()).toBeUndefined();
  });

  it('calls of the unrestricted principal one after another each see their own author, and never turn on a store (no promise hooks)', async () => {
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const authors = new AsyncLocalChangeAuthor();
    for (const tool of ['write_file', 'str_replace', 'remove_file']) {
      const who = author('local', 'stdio', tool);
      expect(await seenAcrossAwaits(authors, who)).toEqual([who, who, who, who]);
      expect(authors.current()).toBeUndefined();
    }
    expect(run).not.toHaveBeenCalled();
  });

  it('a call that starts while another runs gets its own store: each sees only its own author, and the first one to start again after runs alone', async () => {
    const authors = new AsyncLocalChangeAuthor();
    const first = author('local', 's1', 'write_file');
    const second = author('local', 's2', 'copy');
    const third = author('local', 's1', 'move');
    let secondSeen: Promise<(ChangeAuthor | undefined)[]> | undefined;
    let thirdSeen: Promise<(ChangeAuthor | undefined)[]> | undefined;
    const firstSeen = seenAcrossAwaits(authors, first, true, async () => {
      // Started while `first` runs: both in stores of their own (the third starts while the second runs).
      secondSeen = seenAcrossAwaits(authors, second, true, async () => {
        thirdSeen = seenAcrossAwaits(authors, third);
        await tick();
      });
      await tick();
    });
    expect(await firstSeen).toEqual([first, first, first, first]);
    expect(await secondSeen).toEqual([second, second, second, second]);
    expect(await thirdSeen).toEqual([third, third, third, third]);
    // All three ended: the next call runs alone again, without a store.
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const fourth = author('local', 's3', 'create_folder');
    expect(await seenAcrossAwaits(authors, fourth)).toEqual([fourth, fourth, fourth, fourth]);
    expect(run).not.toHaveBeenCalled();
  });

  it('a call that outlives the call running alone keeps its own author after that one ends, and a call starting then runs alone beside it', async () => {
    const authors = new AsyncLocalChangeAuthor();
    const alone = author('local', 's1', 'write_file');
    const long = author('local', 's2', 'remove_folder');
    const later = author('local', 's1', 'str_replace');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let longSeen: Promise<(ChangeAuthor | undefined)[]> | undefined;
    expect(await seenAcrossAwaits(authors, alone, true, async () => {
      longSeen = seenAcrossAwaits(authors, long, true, () => gate);
    })).toEqual([alone, alone, alone, alone]);
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    expect(await seenAcrossAwaits(authors, later)).toEqual([later, later, later, later]);
    expect(run).not.toHaveBeenCalled();
    release();
    expect(await longSeen).toEqual([long, long, long, long]);
  });

  it('Security: a restricted principal\'s call always runs in its own store, even alone, and no call sees another principal', async () => {
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const authors = new AsyncLocalChangeAuthor();
    const alice = author('alice', 'a1', 'write_file');
    expect(await seenAcrossAwaits(authors, alice, false)).toEqual([alice, alice, alice, alice]);
    expect(run).toHaveBeenCalledTimes(1);
    const local = author('local', 's1', 'write_file');
    const bob = author('bob', 'b1', 'remove_file');
    let bobSeen: Promise<(ChangeAuthor | undefined)[]> | undefined;
    let localInsideBob: Promise<(ChangeAuthor | undefined)[]> | undefined;
    const localSeen = seenAcrossAwaits(authors, local, true, async () => {
      bobSeen = seenAcrossAwaits(authors, bob, false, async () => {
        // An unrestricted call started inside bob's store is not bob's, nor the one running alone.
        localInsideBob = seenAcrossAwaits(authors, author('local', 's2', 'copy'));
        await tick();
      });
      await tick();
    });
    expect(await localSeen).toEqual([local, local, local, local]);
    expect(await bobSeen).toEqual([bob, bob, bob, bob]);
    expect((await localInsideBob)?.map((seen) => seen?.session)).toEqual(['s2', 's2', 's2', 's2']);
  });

  it('a call that fails, by throwing or by rejecting, stops running alone', async () => {
    const authors = new AsyncLocalChangeAuthor();
    expect(() =>
      authors.run(author('local', 's1', 'write_file'), true, () => {
        throw new Error('thrown before any await');
      }),
    ).toThrow('thrown before any await');
    await expect(authors.run(author('local', 's1', 'copy'), true, async () => Promise.reject(new Error('rejected')))).rejects.toThrow('rejected');
    const run = jest.spyOn(AsyncLocalStorage.prototype, 'run');
    const next = author('local', 's1', 'move');
    expect(await seenAcrossAwaits(authors, next)).toEqual([next, next, next, next]);
    expect(run).not.toHaveBeenCalled();
  });
});
