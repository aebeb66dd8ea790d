import { readPage, readReviewFile } from './review-files.js';

/** The review app's UI resource (MCP Apps, issue 30.1), linked from review_changes' `_meta.ui`. */
export const REVIEW_APP_URI = 'ui://mcp-filesystem/review';

/**
 * The /changes page itself, with app-bridge.html's script put in front of the page's: it sets
 * `window.changesSource` to the host (JSON-RPC over postMessage), so there is one UI to keep. One
 * self-contained document: the host's default app CSP (no network) is all it needs.
 */
export function reviewAppHtml(): string {
  const page = readPage();
  const at = page.indexOf('<script>');
  if (at < 0) throw new Error('changes-page.html has no <script> for the app bridge to precede');
  return page.slice(0, at) + readReviewFile('app-bridge.html') + page.slice(at);
}
