import { describe, expect, it } from 'vitest';
import { createStoreLock, storeLockOf } from './store-lock.js';

describe('createStoreLock', () => {
  it('runs holders one at a time in the order they asked, releasing after a rejection too', async () => {
    const lock = createStoreLock();
    const order: string[] = [];
    const hold = (name: string, fail = false) =>
      lock.run(async () => {
        order.push(`${name}+`);
        await new Promise((resolve) => setTimeout(resolve, 2));
        order.push(`${name}-`);
        if (fail) throw new Error(`${name} fails`);
        return name;
      });
    const settled = await Promise.allSettled([hold('a'), hold('b', true), hold('c')]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(order).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
    expect(lock.busy).toBe(false);
  });

  it('starts a holder in the same turn when free, and a synchronous throw releases the lock', async () => {
    const lock = createStoreLock();
    let ran = false;
    const done = lock.run(() => {
      ran = true;
      return 1;
    });
    expect(ran).toBe(true);
    expect(await done).toBe(1);
    await expect(
      lock.run(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(lock.busy).toBe(false);
  });

  it('gives one lock per connection object', () => {
    const a = {};
    expect(storeLockOf(a)).toBe(storeLockOf(a));
    expect(storeLockOf(a)).not.toBe(storeLockOf({}));
  });
});
