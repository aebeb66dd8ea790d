import { createRequire } from 'node:module';
import { WinstonLogger } from '../../../src/adapters/outbound/winston-logger.js';

// A file of its own: Jest's module registry is per test file, and no other test here may load winston first.
describe('WinstonLogger start-up cost (issue 31)', () => {
  const winstonLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/winston/'));

  it('loads winston with the first line it writes, not when it is made or drops a line', () => {
    const host = console as unknown as { _stderr?: { write: (chunk: string) => boolean } };
    const original = host._stderr;
    const written: string[] = [];
    host._stderr = { write: (chunk: string) => written.push(chunk) > 0 };
    try {
      expect(winstonLoaded()).toBe(false);
      const logger = new WinstonLogger('warn');
      logger.info('dropped');
      expect(winstonLoaded()).toBe(false);
      logger.warn('written');
      expect(winstonLoaded()).toBe(true);
      expect(written.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([expect.objectContaining({ level: 'warn', message: 'written' })]);
    } finally {
      host._stderr = original;
    }
  });
});
