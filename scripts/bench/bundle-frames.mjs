// Names a profile's frames after the sources they came from: the server runs as a bundle
// (dist/server.cjs, compiled by dist/main.js: its frames' url is a plain path), whose source map names
// the package or src/ file of each frame.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const bundleMaps = new Map();
function bundleMapOf(url) {
  if (!/\/dist\/server\.cjs$/.test(url)) return undefined;
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (!bundleMaps.has(url)) bundleMaps.set(url, new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))));
  return bundleMaps.get(url);
}

/** The source URL and line of a V8 profile call frame (`{ url, lineNumber, columnNumber }`, zero-based). */
export function sourceOf(callFrame) {
  const bundleMap = bundleMapOf(callFrame.url);
  if (!bundleMap) return { url: callFrame.url, line: callFrame.lineNumber + 1 };
  const entry = bundleMap.findEntry(callFrame.lineNumber, callFrame.columnNumber);
  return entry.originalSource ? { url: entry.originalSource, line: entry.originalLine + 1 } : { url: callFrame.url, line: callFrame.lineNumber + 1 };
}

/** `function file:line` for a call frame, the file as its last two path segments. */
export function frameName(callFrame) {
  const source = sourceOf(callFrame);
  return `${callFrame.functionName || '(anonymous)'} ${source.url.split('/').slice(-2).join('/')}:${source.line}`;
}

/** The package (or src/ file, or node core) a source URL belongs to. */
export function groupOf(url) {
  if (!url) return '(native / idle / gc)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/src\/(.*)$/.exec(url);
  if (ours) return `src/${ours[1]}`;
  if (url.startsWith('node:')) return 'node core';
  return url;
}
