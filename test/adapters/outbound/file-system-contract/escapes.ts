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
export function seedEscapes(fixture: Fixture): void {
  const { seed, root, outsideHostDir } = fixture;
  const lookAlike = `${root.hostPath}-evil`;
  seed.file('real.txt', REAL);
  seed.dir('sub');
  seed.outsideFile('secret.txt', SECRET);
  seed.lookAlikeFile('secret.txt', SECRET);
  seed.linkToOutside('abs-escape', 'secret.txt');
  seed.symlink('sub/rel-escape', posix.relative(`${root.hostPath}/sub`, `${outsideHostDir}/secret.txt`));
  seed.symlink('chain-start', 'chain-middle');
  seed.linkToOutside('chain-middle', 'secret.txt');
  seed.outsideSymlink('hop-back', `${root.hostPath}/real.txt`);
  seed.linkToOutside('out-and-back', 'hop-back');
  seed.symlink('look-alike', `${lookAlike}/secret.txt`);
  seed.symlink('abs-dir-escape', outsideHostDir);
  seed.symlink('sub/rel-dir-escape', posix.relative(`${root.hostPath}/sub`, outsideHostDir));
  seed.symlink('look-alike-dir', lookAlike);
}
