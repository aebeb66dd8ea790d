import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { readPage } from './review-files.js';

export const REVIEW_PAGE_PATH = '/changes';

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
