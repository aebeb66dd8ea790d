import { readFileSync } from 'node:fs';

const PAGE_FILE = 'changes-page.html';

/**
 * One of the review page's files, beside this module: src/ under ts-jest, dist/ under tsc; the bundle
 * (dist/server.cjs) finds the copies scripts/build.mjs puts in dist/review/. No HTTP
 * code here: a stdio server reads the MCP App through this module.
 */
export function readReviewFile(file: string): string {
  const candidates = [`./${file}`, `../review/${file}`, `./review/${file}`];
  for (const candidate of candidates) {
    try {
      return readFileSync(new URL(candidate, import.meta.url), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw new Error(`${file} is missing next to the server's code (npm run build copies it)`);
}

export const readPage = (): string => readReviewFile(PAGE_FILE);
