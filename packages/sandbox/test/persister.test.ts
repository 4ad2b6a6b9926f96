/**
 * The persister's bounds (issue 20 §4, an event-loop stall on the embedded sandbox under load):
 * comparing the state costs a JSON text per record, so flushes that find a write queued share it,
 * and one comparison yields to the event loop between slices of records.
 */
import { describe, expect, it } from 'vitest';
import { RECORDS_PER_TURN, StatePersister } from '../src/persistence/persister.js';
import type { SandboxRecord, SandboxRecordChange } from '../src/persistence/types.js';

function harness(count: number) {
  const records: SandboxRecord[] = Array.from({ length: count }, (_, i) => ({
    kind: 'order',
    id: `ord_${i}`,
    body: { status: 'PENDING', n: i },
  }));
  const saves: SandboxRecordChange[][] = [];
  let snapshots = 0;
  let gate: Promise<void> | undefined;
  const persister = new StatePersister(
    () => {
      snapshots++;
      return records.map((r) => ({ ...r }));
    },
    {
      load: async () => [],
      save: async (changes) => {
        saves.push([...changes]);
        await gate;
      },
    },
  );
  return {
    records,
    saves,
    persister,
    snapshots: () => snapshots,
    /** The next save waits until the returned function is called. */
    holdNextSave() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

describe('the sandbox state persister', () => {
  it('lets a burst of flushes share the write queued behind the running one', async () => {
    const { records, saves, persister, snapshots, holdNextSave } = harness(10);
    const release = holdNextSave();
    const first = persister.flush();
    // The first write is running (saving) when the burst comes.
    while (saves.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    // Each change is made before its flush() call, as a request's changes are.
    const burst = records.map((r, i) => {
      r.body = { status: 'APPROVED', n: i };
      return persister.flush();
    });
    release();
    await Promise.all([first, ...burst]);
    expect(snapshots()).toBe(2);
    expect(saves).toHaveLength(2);
    expect(saves[1]?.map((c) => c.body)).toEqual(records.map((r) => r.body));
  });

  it('yields to the event loop while comparing a large state, and still stores every change', async () => {
    const { records, saves, persister } = harness(RECORDS_PER_TURN * 4);
    // Counts the event-loop turns that ran while the comparison was in progress: an immediate that
    // queues the next one runs once per turn, and never before \`flush\` resolves unless it yielded.
    // (A 0 ms interval needed a whole millisecond to pass: a fast machine compared everything in
    // less and counted no turn at all.)
    let turns = 0;
    let ticking: NodeJS.Immediate | undefined;
    const tick = () => {
      turns++;
      ticking = setImmediate(tick);
    };
    ticking = setImmediate(tick);
    try {
      await persister.flush();
    } finally {
      clearImmediate(ticking);
    }
    expect(saves[0]).toHaveLength(records.length);
    expect(turns).toBeGreaterThan(0);

    // A change made while a write is running is stored by the next one.
    records[0]!.body = { status: 'CANCELED', n: 0 };
    const running = persister.flush();
    records[1]!.body = { status: 'CANCELED', n: 1 };
    await Promise.all([running, persister.flush()]);
    expect(
      saves
        .slice(1)
        .flat()
        .map((c) => c.id)
        .sort(),
    ).toEqual(['ord_0', 'ord_1']);
  });
});
