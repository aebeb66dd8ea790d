import fs from 'node:fs';
export * from 'node:fs';
export default fs;
export function globSync() {
  throw new Error('fs.globSync needs Node 22 (only the suite\'s tier-check command uses it)');
}
