import { afterEach, describe, expect, it } from 'vitest';
import { sandboxRecords } from '../src/index.js';
import { backends, type TestDatabase, unique } from './helpers/backends.js';

// Each test opens a fresh PGlite (initdb in WebAssembly): seconds, many more on a loaded machine.
describe.each(backends)('sandbox records on $name', (backend) => {
  const opened: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });
  const open = async () => {
    const db = await backend.open();
    opened.push(db);
    return db.store;
  };

  it('saves, updates and deletes records of one namespace, leaving the others alone', async () => {
    const store = await open();
    const mine = sandboxRecords(store, unique('sandbox'));
    const theirs = sandboxRecords(store, unique('sandbox'));
    await theirs.save([{ kind: 'order', id: 'o1', body: { status: 'PAID' } }]);
    await mine.save([
      { kind: 'order', id: 'o1', body: { status: 'PENDING', lines: [{ name: 'Tea' }] } },
      { kind: 'user', id: 'u1', body: { localId: 'an' } },
    ]);
    await mine.save([
      { kind: 'order', id: 'o1', body: { status: 'APPROVED', lines: [{ name: 'Tea' }] } },
      { kind: 'user', id: 'u1', body: null },
    ]);
    expect(await mine.load()).toEqual([
      { kind: 'order', id: 'o1', body: { status: 'APPROVED', lines: [{ name: 'Tea' }] } },
    ]);
    expect(await theirs.load()).toEqual([{ kind: 'order', id: 'o1', body: { status: 'PAID' } }]);
  });

  it('writes a batch in one transaction: a failing change leaves none of the batch behind', async () => {
    const store = await open();
    const records = sandboxRecords(store, unique('sandbox'));
    const unserializable = { amount: 1n };
    await expect(
      records.save([
        { kind: 'order', id: 'o1', body: { status: 'PENDING' } },
        { kind: 'order', id: 'o2', body: unserializable },
      ]),
    ).rejects.toThrow(/BigInt/);
    expect(await records.load()).toEqual([]);
  });
});
