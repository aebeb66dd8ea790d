import Koa from 'koa';
import { hostGuard, hostnameOf, originHostnameOf } from '../../../../src/adapters/inbound/http/host-guard.js';

describe('hostnameOf', () => {
  it.each([
    ['localhost:8091', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['[::1]:8091', '[::1]'],
    ['[::1]', '[::1]'],
    ['', undefined],
    ['[::1', undefined],
  ])('%s -> %s', (header, expected) => {
    expect(hostnameOf(header)).toBe(expected);
  });
});

describe('originHostnameOf', () => {
  it.each([
    ['http://localhost:3000', 'localhost'],
    ['https://Example.com', 'example.com'],
    ['http://[::1]:3000', '[::1]'],
    ['null', undefined],
    ['not a url', undefined],
  ])('%s -> %s', (origin, expected) => {
    expect(originHostnameOf(origin)).toBe(expected);
  });
});

/** Runs the guard on a request with these headers; returns the status it leaves, 204 if it let the request through. */
async function statusFor(allowed: string[], headers: Record<string, string>): Promise<number> {
  const app = new Koa();
  const context = app.createContext(
    Object.assign(Object.create(null), { headers, url: '/mcp', method: 'POST', socket: {} }),
    Object.assign(Object.create(null), { setHeader() {}, getHeader() {}, removeHeader() {} }),
  );
  let passed = false;
  await hostGuard(allowed)(context, async () => {
    passed = true;
  });
  return passed ? 204 : context.status;
}

describe('hostGuard', () => {
  const loopback = ['localhost', '127.0.0.1', '[::1]'];

  it('lets allowed Host names through whatever the port', async () => {
    expect(await statusFor(loopback, { host: 'localhost:8091' })).toBe(204);
    expect(await statusFor(loopback, { host: '[::1]:9000' })).toBe(204);
  });

  it('rejects a Host that is not listed (DNS rebinding)', async () => {
    expect(await statusFor(loopback, { host: 'attacker.example:8091' })).toBe(403);
  });

  it('rejects a request without a Host header', async () => {
    expect(await statusFor(loopback, {})).toBe(403);
  });

  it('rejects a browser Origin that is not listed, even with a good Host', async () => {
    expect(await statusFor(loopback, { host: 'localhost:8091', origin: 'http://attacker.example' })).toBe(403);
    expect(await statusFor(loopback, { host: 'localhost:8091', origin: 'null' })).toBe(403);
  });

  it('accepts a listed Origin', async () => {
    expect(await statusFor(loopback, { host: 'localhost:8091', origin: 'http://127.0.0.1:5173' })).toBe(204);
  });

  it('accepts anything with "*"', async () => {
    expect(await statusFor(['*'], { host: 'anything.example', origin: 'http://elsewhere.example' })).toBe(204);
  });
});
