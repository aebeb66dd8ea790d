import { DomainError } from '../../../src/domain/errors.js';
import { PathPolicy } from '../../../src/domain/path-policy.js';
import type { Root } from '../../../src/domain/roots.js';
import { RootAccess } from '../../../src/domain/tools/root-access.js';
import { makeRoot } from '../../support/roots.js';
import { toolPolicy } from '../../support/tools.js';

const archive: Root = { ...makeRoot('rel', '/data/release.tar', ['read_file', 'list_folder']), readOnly: true };
const access = new RootAccess(new PathPolicy([makeRoot('ws', '/data/ws'), archive]), toolPolicy());

function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a refusal');
}

describe('RootAccess on a read-only root', () => {
  it('refuses a writing tool as read-only, naming the root and the confined path, before the allowlist', () => {
    const error = refusal(() => access.path('write_file', 'rel', 'docs/../notes.txt'));
    expect([error.code, error.message]).toEqual(['PERMISSION_DENIED', 'read-only root (an archive): cannot change notes.txt (root: rel)']);
  });

  it('still confines the path first: a path that climbs out is refused as such', () => {
    expect(refusal(() => access.path('write_file', 'rel', '../../etc/passwd')).code).not.toBe('PERMISSION_DENIED');
  });

  it('refuses copy into it and move out of it, and lets reads through', () => {
    expect(refusal(() => access.pair('copy', { root: 'ws', path: 'a' }, { root: 'rel', path: 'b' })).message).toBe(
      'read-only root (an archive): cannot change b (root: rel)',
    );
    expect(refusal(() => access.pair('move', { root: 'rel', path: 'a' }, { root: 'ws', path: 'b' })).message).toBe(
      'read-only root (an archive): cannot change a (root: rel)',
    );
    expect(access.path('read_file', 'rel', 'a.txt').segments).toEqual(['a.txt']);
    // A read tool it does not allow is refused by the allowlist, as on any root.
    expect(refusal(() => access.path('grep', 'rel', '.')).code).toBe('TOOL_NOT_ALLOWED');
  });
});
