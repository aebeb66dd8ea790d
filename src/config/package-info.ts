import { readFileSync } from 'node:fs';

// The nearest package.json above this module: src/ and dist/ under tsc, the one-file dist/main.js bundle.
export function readPackageJson(): { version: string } {
  for (let url = new URL('./package.json', import.meta.url); ; url = new URL('../package.json', url)) {
    try {
      return JSON.parse(readFileSync(url, 'utf8')) as { version: string };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || url.pathname === '/package.json') throw error;
    }
  }
}
