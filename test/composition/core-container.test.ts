import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpServer } from '../../src/adapters/inbound/http/http-app.js';
import { StdioServer } from '../../src/adapters/inbound/mcp/transports/stdio-transport.js';
import { DiskChangeJournal } from '../../src/adapters/outbound/journal/disk-change-journal.js';
import { RedisChangeJournal } from '../../src/adapters/outbound/journal/redis-change-journal.js';
import { InProcessChangeFeed } from '../../src/adapters/outbound/feed/in-process-change-feed.js';
import { RedisChangeFeed } from '../../src/adapters/outbound/feed/redis-change-feed.js';
import { InMemorySessionState } from '../../src/adapters/outbound/in-memory-session-state.js';
import { PrometheusMetrics } from '../../src/adapters/outbound/prometheus-metrics.js';
import { RedisSessionState } from '../../src/adapters/outbound/redis-session-state.js';
import type { SessionStateStore } from '../../src/adapters/shared/session-state-store.port.js';
import { buildContainer } from '../../src/composition/container.js';
import { buildCoreContainer, buildStdioContainer } from '../../src/composition/core-container.js';
import { TOKENS } from '../../src/composition/tokens.js';
import { RecordingLogger } from '../support/recording-logger.js';
import { compositionConfig } from './app-config.js';

const CONFIG = compositionConfig();

// Nothing listens on port 1: the Redis client fails to connect, which is all these tests need.
const UNREACHABLE_REDIS = 'redis://127.0.0.1:1';

describe('buildCoreContainer (what a stdio server needs)', () => {
  it('binds the stdio server and every tool, and nothing of the HTTP server', () => {
    const container = buildCoreContainer(CONFIG, { logger: new RecordingLogger() });
    expect(container.get(StdioServer)).toBeInstanceOf(StdioServer);
    expect(container.getAll(TOKENS.ToolDefinition).map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['list_roots', 'read_file', 'grep', 'view', 'str_replace']),
    );
    expect(container.isBound(HttpServer)).toBe(false);
    // No metrics observer: stdio has no /metrics to expose them on.
    expect(container.isBound(TOKENS.Metrics)).toBe(false);
    expect(container.get(TOKENS.SessionStore)).toBeInstanceOf(InMemorySessionState);
    expect(container.get(TOKENS.ChangeFeed)).toBeInstanceOf(InProcessChangeFeed);
  });

  it('refuses a session_store.url it was given no way to serve', () => {
    expect(() => buildCoreContainer({ ...CONFIG, sessionStoreUrl: UNREACHABLE_REDIS }, { logger: new RecordingLogger() })).toThrow(
      'session_store.url is set but no remote session store was loaded',
    );
  });

  it('builds the remote store and change feed with the URL and session limits of the config', () => {
    const made: unknown[][] = [];
    const store = new InMemorySessionState(CONFIG.sessions, { now: () => new Date(0) });
    const feed = new InProcessChangeFeed();
    const container = buildCoreContainer({ ...CONFIG, sessionStoreUrl: UNREACHABLE_REDIS }, { logger: new RecordingLogger() }, {
      sessionStore: (...args) => {
        made.push(args);
        return store;
      },
      changeJournal: () => {
        throw new Error('no journal in this config');
      },
      changeFeed: (...args) => {
        made.push(args);
        return feed;
      },
    });
    expect(container.get(TOKENS.SessionStore)).toBe(store);
    expect(container.get(TOKENS.ChangeFeed)).toBe(feed);
    expect(made).toEqual([
      [UNREACHABLE_REDIS, CONFIG.sessions, container.get(TOKENS.Logger)],
      [UNREACHABLE_REDIS, container.get(TOKENS.Logger)],
    ]);
  });
});

describe('buildStdioContainer', () => {
  it('uses the in-memory store when no session_store.url is set', async () => {
    const container = await buildStdioContainer(CONFIG, { logger: new RecordingLogger() });
    expect(container.get(TOKENS.SessionStore)).toBeInstanceOf(InMemorySessionState);
  });

  it('loads the Redis store when session_store.url is set', async () => {
    const container = await buildStdioContainer({ ...CONFIG, sessionStoreUrl: UNREACHABLE_REDIS }, { logger: new RecordingLogger() });
    const store: SessionStateStore = container.get(TOKENS.SessionStore);
    const feed = container.get(TOKENS.ChangeFeed);
    try {
      expect(store).toBeInstanceOf(RedisSessionState);
      expect(feed).toBeInstanceOf(RedisChangeFeed);
    } finally {
      await store.disconnect();
      await feed.close();
    }
  });
});

describe('buildContainer (HTTP) keeps the HTTP parts', () => {
  it('adds the HTTP server and the Prometheus metrics, which observe tool calls', () => {
    const container = buildContainer(CONFIG, { logger: new RecordingLogger() });
    expect(container.get(HttpServer)).toBeInstanceOf(HttpServer);
    expect(container.get(TOKENS.Metrics)).toBeInstanceOf(PrometheusMetrics);
    expect(container.get(StdioServer)).toBeInstanceOf(StdioServer);
  });

  it('uses Redis when session_store.url is set', async () => {
    const container = buildContainer({ ...CONFIG, sessionStoreUrl: UNREACHABLE_REDIS }, { logger: new RecordingLogger() });
    const store: SessionStateStore = container.get(TOKENS.SessionStore);
    const feed = container.get(TOKENS.ChangeFeed);
    try {
      expect(store).toBeInstanceOf(RedisSessionState);
      expect(feed).toBeInstanceOf(RedisChangeFeed);
    } finally {
      await store.disconnect();
      await feed.close();
    }
  });
});

describe('the change journal store', () => {
  const journalDir = mkdtempSync(join(tmpdir(), 'mcp-fs-composition-journal-'));
  afterAll(() => rmSync(journalDir, { recursive: true, force: true }));
  const journal = { dir: join(journalDir, 'j'), maxBytes: 1000, maxFileBytes: 100, retentionHours: 1 };

  it('keeps records on disk without a Redis URL', async () => {
    for (const container of [buildContainer({ ...CONFIG, journal }, { logger: new RecordingLogger() }), await buildStdioContainer({ ...CONFIG, journal }, { logger: new RecordingLogger() })]) {
      expect(container.get(TOKENS.ChangeJournal)).toBeInstanceOf(DiskChangeJournal);
    }
  });

  it('keeps the record index in Redis with session_store.url set, over HTTP and stdio', async () => {
    const config = { ...CONFIG, journal, sessionStoreUrl: UNREACHABLE_REDIS };
    for (const container of [buildContainer(config, { logger: new RecordingLogger() }), await buildStdioContainer(config, { logger: new RecordingLogger() })]) {
      const store = container.get(TOKENS.ChangeJournal);
      try {
        expect(store).toBeInstanceOf(RedisChangeJournal);
      } finally {
        (store as RedisChangeJournal).disconnect();
        await container.get<SessionStateStore>(TOKENS.SessionStore).disconnect();
      }
    }
  });
});
