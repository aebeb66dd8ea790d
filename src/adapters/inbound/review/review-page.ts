import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Router from '@koa/router';

export const REVIEW_PAGE_PATH = '/changes';
const PAGE_FILE = 'changes-page.html';

/**
 * One of the page's files, beside this module: src/ under ts-jest, dist/ under tsc; the bundle's chunks
 * (dist/chunks/) and dist/main.js find the copies scripts/build.mjs puts in dist/review/.
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

/**
 * Security: the page runs only its own inline script (by hash) and talks only to its own origin; it
 * may not be framed (clickjacking an Undo button), sends no referrer and submits no form.
 */
function contentSecurityPolicy(html: string): string {
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => `'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`);
  return [
    "default-src 'none'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'unsafe-inline'",
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** GET /changes: the page itself, open to anyone who passes the Host guard; it holds no data, and asks for a token when the API wants one. */
export function reviewPageRouter(): Router {
  const html = readPage();
  const policy = contentSecurityPolicy(html);
  const router = new Router();
  router.get(REVIEW_PAGE_PATH, (ctx) => {
    ctx.set('Content-Security-Policy', policy);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  });
  return router;
}
