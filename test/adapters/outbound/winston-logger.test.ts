import { WinstonLogger } from '../../../src/adapters/outbound/winston-logger.js';

/** Fields whose reads are counted: winston reads every field when it builds a record. */
function countedFields(): { fields: Record<string, unknown>; reads: () => number } {
  let reads = 0;
  const fields = {};
  Object.defineProperty(fields, 'counted', {
    enumerable: true,
    get: () => {
      reads += 1;
      return 'value';
    },
  });
  return { fields, reads: () => reads };
}

describe('WinstonLogger', () => {
  // winston's Console transport writes to console._stderr (process.stderr outside Jest) when there is one, else console.error.
  const host = console as unknown as { _stderr?: { write: (chunk: string) => boolean } };
  const original = host._stderr;
  let written: string[];
  const lines = () => written;

  beforeEach(() => {
    written = [];
    host._stderr = { write: (chunk: string) => written.push(chunk) > 0 };
  });

  afterEach(() => {
    host._stderr = original;
  });

  it('drops a line below its level before building a record: its fields are never read', () => {
    const logger = new WinstonLogger('warn');
    const below = countedFields();
    logger.info('below the level', below.fields);
    logger.debug('further below', below.fields);
    expect(below.reads()).toBe(0);
    expect(lines().join('')).not.toContain('below the level');
  });

  it('writes a line at or above its level as one JSON record on stderr', () => {
    const logger = new WinstonLogger('info');
    const at = countedFields();
    logger.info('at the level', at.fields);
    logger.error('above the level');
    expect(at.reads()).toBeGreaterThan(0);
    const records = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toEqual([
      expect.objectContaining({ level: 'info', message: 'at the level', counted: 'value' }),
      expect.objectContaining({ level: 'error', message: 'above the level' }),
    ]);
  });
});
