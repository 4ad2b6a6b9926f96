/**
 * The child side of every HTTP benchmark: start a server, report its port, and answer the parent's
 * `mark` / `report` messages with the CPU time used in between (all threads, and the main
 * JavaScript thread alone where Linux exposes it), so the parent can compute CPU per request.
 */
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { Session } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import { roundTrips } from './count-round-trips.js';

export interface CpuReport {
  cpuMicros: number;
  mainCpuMicros: number | undefined;
  /** Database round trips in between, when the server counts them (count-round-trips.ts). */
  roundTrips: number | undefined;
  rssBytes: number;
}

/** CPU time of the main thread alone (utime + stime from /proc, 10 ms ticks); undefined off Linux. */
function mainThreadCpuMicros(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

/**
 * BENCH_HEAP_SAMPLE_OUT=<file>: a sampling heap profile of the measured window (mark to report),
 * written to <file>.<pid>.heapprofile with the window's request count (`heap-top.ts` reads it).
 * It counts everything allocated, or with BENCH_HEAP_SAMPLE=promoted only what a scavenge did not
 * collect: the objects that lived long enough to be promoted to the old generation, which make
 * scavenges slow (they are copied) and mark-compacts frequent. The inspector's callbacks run
 * synchronously.
 */
function heapSampler(server: Server, out: string | undefined): { start(): void; stop(): void } | undefined {
  if (!out) return undefined;
  // The requests of the window go into the file with the profile, for bytes per request.
  let requests = 0;
  server.on('request', () => requests++);
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.enable');
  return {
    start: () => {
      requests = 0;
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 512,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: process.env.BENCH_HEAP_SAMPLE !== 'promoted',
      } as object);
    },
    stop: () =>
      session.post('HeapProfiler.stopSampling', (error, result) => {
        if (!error)
          writeFileSync(`${out}.${process.pid}.heapprofile`, JSON.stringify({ ...result.profile, requests }));
      }),
  };
}

export async function serveForParent(server: Server): Promise<void> {
  if (!server.listening) await once(server, 'listening');
  const sampler = heapSampler(server, process.env.BENCH_HEAP_SAMPLE_OUT);
  let mark = process.cpuUsage();
  let mainMark = mainThreadCpuMicros();
  let tripsMark = roundTrips();
  process.on('message', (message: string) => {
    if (message === 'mark') {
      mark = process.cpuUsage();
      mainMark = mainThreadCpuMicros();
      tripsMark = roundTrips();
      sampler?.start();
    } else if (message === 'report') {
      sampler?.stop();
      const used = process.cpuUsage(mark);
      const main = mainThreadCpuMicros();
      const trips = roundTrips();
      const report: CpuReport = {
        cpuMicros: used.user + used.system,
        mainCpuMicros: main === undefined || mainMark === undefined ? undefined : main - mainMark,
        roundTrips: trips === undefined || tripsMark === undefined ? undefined : trips - tripsMark,
        rssBytes: process.memoryUsage.rss(),
      };
      process.send?.(report);
    }
  });
  process.on('SIGINT', () => process.exit(0));
  process.send?.({ port: (server.address() as AddressInfo).port });
}
