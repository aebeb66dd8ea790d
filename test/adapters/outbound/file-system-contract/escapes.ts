import { posix } from 'node:path';
import type { Fixture } from '../file-system.contract.js';

export const SECRET = 'top secret';
export const REAL = 'real content';

/** In-root names of links that lead to the outside file `secret.txt`, one per kind of escape. */
export const FILE_ESCAPES: ReadonlyArray<readonly [string, string]> = [
  ['an absolute link outside', 'abs-escape'],
  ['a relative ../ link', 'sub/rel-escape'],
  ['a chain whose second hop leaves', 'chain-start'],
  ['a chain that leaves and comes back in', 'out-and-back'],
  ['a link into the look-alike sibling <root>-evil', 'look-alike'],
];

/** In-root names of links to directories outside the root. */
export const DIRECTORY_ESCAPES: ReadonlyArray<readonly [string, string]> = [
  ['an absolute link to an outside directory', 'abs-dir-escape'],
  ['a relative ../ link to an outside directory', 'sub/rel-dir-escape'],
  ['a link to the look-alike sibling <root>-evil', 'look-alike-dir'],
];

/**
 * Seeds every escape above, an in-root `real.txt` and the outside `secret.txt`. The links
 * point at things that really exist, so an adapter that failed to judge a hop would
 * succeed instead of being denied.
 */
export async function seedEscapes(fixture: Fixture): Promise<void> {
  const { seed, root, outsideHostDir } = fixture;
  const lookAlike = `${root.hostPath}-evil`;
  await seed.file('real.txt', REAL);
  await seed.dir('sub');
  await seed.outsideFile('secret.txt', SECRET);
  await seed.lookAlikeFile('secret.txt', SECRET);
  await seed.linkToOutside('abs-escape', 'secret.txt');
  await seed.symlink('sub/rel-escape', posix.relative(`${root.hostPath}/sub`, `${outsideHostDir}/secret.txt`));
  await seed.symlink('chain-start', 'chain-middle');
  await seed.linkToOutside('chain-middle', 'secret.txt');
  await seed.outsideSymlink('hop-back', `${root.hostPath}/real.txt`);
  await seed.linkToOutside('out-and-back', 'hop-back');
  await seed.symlink('look-alike', `${lookAlike}/secret.txt`);
  await seed.symlink('abs-dir-escape', outsideHostDir);
  await seed.symlink('sub/rel-dir-escape', posix.relative(`${root.hostPath}/sub`, outsideHostDir));
  await seed.symlink('look-alike-dir', lookAlike);
}
