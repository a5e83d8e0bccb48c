import { describe, expect, it } from 'vitest';
import { editRow } from './edit-row.js';
import { createMemoryStore } from './memory-store.js';
import { runLines } from './run-lines.js';

describe('editRow', () => {
  const setup = async () => {
    const store = createMemoryStore();
    await runLines(store, {
      owner: 'u',
      agent: 'a',
      now: 0,
      timeZone: 'UTC',
      lines: 'table create Todo Item:text Done:bool\nput Todo Item=milk',
    });
    return store;
  };
  const edit = { owner: 'u', agent: 'a', id: 'n1', table: 'Todo', key: 'r1' };

  it('writes the tick and returns the event for the agent', async () => {
    const store = await setup();
    expect(await editRow(store, { ...edit, values: { Done: true } })).toEqual({
      id: 'n1',
      preset: 'query',
      op: 'row',
      table: 'Todo',
      key: 'r1',
      values: { Done: true },
    });
    expect((await store.getRow({ owner: 'u', holder: 'a', name: 'Todo' }, 'r1'))!.values).toEqual({
      Item: 'milk',
      Done: true,
    });
  });

  it('refuses stale or wrong edits and writes nothing', async () => {
    const store = await setup();
    await expect(editRow(store, { ...edit, values: { Done: 'yes' } })).rejects.toThrow(
      expect.objectContaining({ code: 'VALUE_DOES_NOT_FIT' }),
    );
    await expect(editRow(store, { ...edit, values: { Gone: true } })).rejects.toThrow(
      expect.objectContaining({ code: 'COLUMN_NOT_FOUND' }),
    );
    await expect(editRow(store, { ...edit, key: 'r9', values: { Done: true } })).rejects.toThrow(
      expect.objectContaining({ code: 'TABLE_NOT_FOUND' }),
    );
    await expect(editRow(store, { ...edit, agent: 'b', values: { Done: true } })).rejects.toThrow(
      expect.objectContaining({ code: 'TABLE_NOT_FOUND' }),
    );
    expect((await store.getRow({ owner: 'u', holder: 'a', name: 'Todo' }, 'r1'))!.values.Done).toBeNull();
  });
});
