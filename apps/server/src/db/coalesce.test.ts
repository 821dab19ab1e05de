import { expect, test } from 'vitest';
import { coalesce } from './coalesce.ts';

/** A statement stand-in that records each batch it is given and answers when `finish` is called. */
function recordingStatement<K>(answer: (key: K) => unknown = (key) => key) {
  const batches: K[][] = [];
  const pending: (() => void)[] = [];
  const run = (keys: readonly K[]) => {
    batches.push([...keys]);
    return new Promise<unknown[]>((resolve, reject) => {
      pending.push(() => {
        try {
          resolve(keys.map(answer));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      });
    });
  };
  /** Lets the oldest batch in flight answer, then waits until the coalescer has dispatched what follows. */
  const finishOldest = async () => {
    pending.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { run, batches, finishOldest, inFlight: () => pending.length };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('a lone call goes out at once, as a batch of one', async () => {
  const statement = recordingStatement<number>((key) => key * 10);
  const load = coalesce(statement.run, { slots: 1 });
  const result = load(7);
  await settle();
  expect(statement.batches).toEqual([[7]]);
  await statement.finishOldest();
  await expect(result).resolves.toBe(70);
});

test('calls made while the batch before is in flight go out together, in call order, when it answers', async () => {
  const statement = recordingStatement<number>((key) => `answer ${key}`);
  const load = coalesce(statement.run, { slots: 1 });
  const first = load(1);
  await settle();
  const waiting = [load(2), load(3), load(4)];
  await settle();
  expect(statement.batches).toEqual([[1]]);
  await statement.finishOldest();
  expect(statement.batches).toEqual([[1], [2, 3, 4]]);
  await statement.finishOldest();
  await expect(first).resolves.toBe('answer 1');
  await expect(Promise.all(waiting)).resolves.toEqual(['answer 2', 'answer 3', 'answer 4']);
});

test('calls made in the same turn of the event loop share one batch even when a slot is free', async () => {
  const statement = recordingStatement<string>();
  const load = coalesce(statement.run, { slots: 4 });
  const results = Promise.all([load('a'), load('b')]);
  await settle();
  expect(statement.batches).toEqual([['a', 'b']]);
  await statement.finishOldest();
  await expect(results).resolves.toEqual(['a', 'b']);
});

test('with two slots two batches are in flight at once, and a third waits for one of them', async () => {
  const statement = recordingStatement<number>();
  const load = coalesce(statement.run, { slots: 2 });
  const results = [load(1)];
  await settle();
  results.push(load(2));
  await settle();
  results.push(load(3), load(4));
  await settle();
  expect(statement.batches).toEqual([[1], [2]]);
  expect(statement.inFlight()).toBe(2);
  await statement.finishOldest();
  expect(statement.batches).toEqual([[1], [2], [3, 4]]);
  await statement.finishOldest();
  await statement.finishOldest();
  await expect(Promise.all(results)).resolves.toEqual([1, 2, 3, 4]);
});

test('a batch holds at most maxBatch keys; the rest wait for the next', async () => {
  const statement = recordingStatement<number>();
  const load = coalesce(statement.run, { slots: 1, maxBatch: 2 });
  const results = [load(0)];
  await settle();
  results.push(load(1), load(2), load(3), load(4), load(5));
  await settle();
  while (statement.inFlight() > 0) await statement.finishOldest();
  expect(statement.batches).toEqual([[0], [1, 2], [3, 4], [5]]);
  await expect(Promise.all(results)).resolves.toEqual([0, 1, 2, 3, 4, 5]);
});

test('when a batch fails, each of its keys runs alone: only the key that fails alone gets an error', async () => {
  const batches: number[][] = [];
  const load = coalesce(
    async (keys: readonly number[]) => {
      batches.push([...keys]);
      if (keys.includes(13)) throw new Error('no 13 here');
      return keys.map((key) => key + 1);
    },
    { slots: 1 },
  );
  const results = await Promise.allSettled([load(12), load(13), load(14)]);
  expect(batches).toEqual([[12, 13, 14], [12], [13], [14]]);
  expect(results).toEqual([
    { status: 'fulfilled', value: 13 },
    { status: 'rejected', reason: new Error('no 13 here') },
    { status: 'fulfilled', value: 15 },
  ]);
});

test('a statement answering a different number of results than keys is an error, and the slot is free again', async () => {
  let isBroken = true;
  const load = coalesce(async (keys: readonly number[]) => (isBroken ? [] : keys.map((key) => key * 2)), { slots: 1 });
  await expect(load(1)).rejects.toThrow('a coalesced statement answered 0 results for 1 keys');
  isBroken = false;
  await expect(load(2)).resolves.toBe(4);
});

test('a failed batch frees its slot: the calls that waited behind it still go out', async () => {
  const batches: string[][] = [];
  let fail: (error: Error) => void = () => undefined;
  const load = coalesce(
    (keys: readonly string[]) => {
      batches.push([...keys]);
      if (keys[0] === 'first') return new Promise<string[]>((_, reject) => (fail = reject));
      return Promise.resolve(keys.map((key) => key.toUpperCase()));
    },
    { slots: 1 },
  );
  const first = load('first');
  await settle();
  const second = load('second');
  await settle();
  expect(batches).toEqual([['first']]);
  fail(new Error('connection lost'));
  await expect(first).rejects.toThrow('connection lost');
  await expect(second).resolves.toBe('SECOND');
});
