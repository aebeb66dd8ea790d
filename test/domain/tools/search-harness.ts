import type { Clock } from '../../../src/domain/ports/clock.port.js';
import type { Settings } from '../../../src/domain/settings.js';
import { TEST_SETTINGS } from '../../support/domain.js';

const START = new Date('2026-01-01T00:00:00Z').getTime();

/** Advances by `stepMs` on every reading, so a deadline passes after a known number of looks. */
export class SteppingClock implements Clock {
  readings = 0;
  constructor(private readonly stepMs: number) {}
  now(): Date {
    return new Date(START + this.stepMs * this.readings++);
  }
}

/** TEST_SETTINGS with a low result ceiling, so that clamping shows with a few dozen files. */
export function searchSettings(maxResultsLimit: number): Settings {
  return { ...TEST_SETTINGS, search: { ...TEST_SETTINGS.search, maxResultsLimit } };
}
