import type { EntryKind } from '../ports/file-system.port.js';

const SETUID = 0o4000;
const SETGID = 0o2000;
const STICKY = 0o1000;

/** 0o644 -> "0644"; special bits show in the leading digit (0o4755 -> "4755"). */
export function octalMode(permissions: number): string {
  return (permissions & 0o7777).toString(8).padStart(4, '0');
}

/** As `ls -l` prints it: type character, then rwx triplets with s/S and t/T for the special bits. */
export function symbolicMode(kind: EntryKind, permissions: number): string {
  const type = kind === 'directory' ? 'd' : kind === 'symlink' ? 'l' : kind === 'file' ? '-' : '?';
  return (
    type +
    triplet(permissions >> 6, (permissions & SETUID) !== 0, 's') +
    triplet(permissions >> 3, (permissions & SETGID) !== 0, 's') +
    triplet(permissions, (permissions & STICKY) !== 0, 't')
  );
}

function triplet(bits: number, special: boolean, letter: 's' | 't'): string {
  const execute = (bits & 1) !== 0;
  let last = execute ? 'x' : '-';
  if (special) last = execute ? letter : letter.toUpperCase();
  return `${bits & 4 ? 'r' : '-'}${bits & 2 ? 'w' : '-'}${last}`;
}
