import type { ChangeFeed, EntryChange } from '../../../../src/domain/ports/change-feed.port.js';

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
const change = (name: string): EntryChange => ({ rootKey: '0123456789abcdef', paths: [['src', name]] });

/**
 * One behaviour for every change feed, as seen by one replica: the in-process one and Redis run
 * the same cases, so the single-replica default cannot drift from what replicas get.
 */
export function changeFeedContract(make: () => Promise<ChangeFeed>): void {
  let feed: ChangeFeed;
  beforeEach(async () => {
    feed = await make();
  });
  afterEach(async () => {
    await feed.close();
  });

  it('tells every listener of a change at once, exactly once, in the order published', async () => {
    const [one, two]: EntryChange[][] = [[], []];
    feed.subscribe((told) => one.push(told));
    feed.subscribe((told) => two.push(told));
    feed.publish(change('a.ts'));
    feed.publish(change('b.ts'));
    expect(one).toEqual([change('a.ts'), change('b.ts')]);
    await pause(200);
    expect(one).toEqual([change('a.ts'), change('b.ts')]);
    expect(two).toEqual(one);
  });

  it('stops telling a listener that unsubscribed', async () => {
    const told: EntryChange[] = [];
    const unsubscribe = feed.subscribe((received) => told.push(received));
    feed.publish(change('a.ts'));
    unsubscribe();
    feed.publish(change('b.ts'));
    await pause(200);
    expect(told).toEqual([change('a.ts')]);
  });

  it("a listener that throws neither fails the publish nor keeps the change from the others", () => {
    const told: EntryChange[] = [];
    feed.subscribe(() => {
      throw new Error('listener failed');
    });
    feed.subscribe((received) => told.push(received));
    expect(() => feed.publish(change('a.ts'))).not.toThrow();
    expect(told).toEqual([change('a.ts')]);
  });

  it('once closed, tells nobody and publishing still never throws', async () => {
    const told: EntryChange[] = [];
    feed.subscribe((received) => told.push(received));
    await feed.close();
    expect(() => feed.publish(change('a.ts'))).not.toThrow();
    await pause(100);
    expect(told).toEqual([]);
  });
}
