import { randomUUID } from 'node:crypto';
import type { Clock, IdGenerator } from '../ports';

/** The real clock and UUID ids, for composition code (kept apart so small functions need not load the whole service). */
export const systemClock: Clock = { now: () => new Date() };
export const uuidIds: IdGenerator = { next: () => randomUUID() };
