import 'reflect-metadata';
import { injectable } from 'inversify';
import type { Clock } from '../../domain/ports/clock.port.js';

@injectable()
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
