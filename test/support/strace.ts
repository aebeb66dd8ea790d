import { spawnSync } from 'node:child_process';

/**
 * `describe` when strace is there and may trace (a container may forbid ptrace), else `describe.skip`
 * with a warning naming the test file and what it proves, so a skipped run says so.
 */
export function describeWithStrace(file: string, proves: string): typeof describe {
  const hasStrace = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', process.execPath, '-e', '0'], { stdio: 'ignore' }).status === 0;
  if (hasStrace) return describe;
  console.warn(`NOT RUN ${file} (${proves}): strace is missing or may not trace here. Install it (Debian/Ubuntu: apt-get install -y strace), as .ci/run does.`);
  return describe.skip;
}
