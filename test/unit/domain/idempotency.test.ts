import { describe, expect, it } from 'vitest';
import { IdempotencyInProgressError, IdempotencyMismatchError, ValidationError } from '../../../lambdas/domain/errors';
import { Idempotency } from '../../../lambdas/domain/idempotency';
import { FixedClock, MemoryIdempotencyStore } from '../../helpers/memory-stores';

const request = { accountId: 'a1', key: 'k-1', method: 'POST', path: '/partnerships/p/transactions/s', body: '{"transaction":{}}' };
const ok = (n: number) => async () => ({ statusCode: 200, body: JSON.stringify({ n }), headers: {} });

describe('Class: Idempotency', () => {
  describe('Method: run', () => {
    it('runs the first request and replays its response for the same request', async () => {
      const idem = new Idempotency(new MemoryIdempotencyStore(), new FixedClock());
      const first = await idem.run(request, ok(1));
      const second = await idem.run(request, ok(2));
      expect(first).toEqual({ response: { statusCode: 200, body: '{"n":1}', headers: {} }, replayed: false });
      expect(second).toEqual({ response: first.response, replayed: true });
    });

    it('rejects the same key with another body, path or method with 422', async () => {
      const idem = new Idempotency(new MemoryIdempotencyStore(), new FixedClock());
      await idem.run(request, ok(1));
      await expect(idem.run({ ...request, body: '{"transaction":{"x":1}}' }, ok(2))).rejects.toBeInstanceOf(IdempotencyMismatchError);
      await expect(idem.run({ ...request, path: '/other' }, ok(2))).rejects.toBeInstanceOf(IdempotencyMismatchError);
      await expect(idem.run({ ...request, method: 'PUT' }, ok(2))).rejects.toBeInstanceOf(IdempotencyMismatchError);
    });

    it('answers 409 with a retry delay while the first request is in flight', async () => {
      const idem = new Idempotency(new MemoryIdempotencyStore(), new FixedClock());
      let release: () => void = () => {};
      const first = idem.run(
        request,
        () =>
          new Promise((resolve) => {
            release = () => resolve({ statusCode: 200, body: '{}', headers: {} });
          }),
      );
      const error = await idem.run(request, ok(2)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyInProgressError);
      expect((error as IdempotencyInProgressError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
      release();
      await first;
    });

    it('runs again after 24 hours', async () => {
      const clock = new FixedClock();
      const idem = new Idempotency(new MemoryIdempotencyStore(), clock);
      await idem.run(request, ok(1));
      clock.advance(24 * 3600 * 1000 + 1000);
      const again = await idem.run(request, ok(2));
      expect(again).toEqual({ response: { statusCode: 200, body: '{"n":2}', headers: {} }, replayed: false });
    });

    it('does not remember faults: a 5xx or a thrown error lets the next try run', async () => {
      const idem = new Idempotency(new MemoryIdempotencyStore(), new FixedClock());
      await idem.run(request, async () => ({ statusCode: 503, body: '{}', headers: {} }));
      await expect(idem.run(request, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      const third = await idem.run(request, ok(3));
      expect(third.replayed).toBe(false);
      expect(third.response.body).toBe('{"n":3}');
    });

    it('takes over a claim abandoned for longer than the lock time', async () => {
      const clock = new FixedClock();
      const store = new MemoryIdempotencyStore();
      const idem = new Idempotency(store, clock);
      void idem.run(request, () => new Promise(() => {}));
      await Promise.resolve();
      clock.advance(61_000);
      const result = await idem.run(request, ok(4));
      expect(result).toEqual({ response: { statusCode: 200, body: '{"n":4}', headers: {} }, replayed: false });
    });

    it('rejects keys longer than 255 characters', async () => {
      const idem = new Idempotency(new MemoryIdempotencyStore(), new FixedClock());
      await expect(idem.run({ ...request, key: 'k'.repeat(256) }, ok(1))).rejects.toBeInstanceOf(ValidationError);
      await expect(idem.run({ ...request, key: 'k'.repeat(255) }, ok(1))).resolves.toMatchObject({ replayed: false });
    });
  });
});
