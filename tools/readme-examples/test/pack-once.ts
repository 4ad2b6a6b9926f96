/**
 * Vitest's global setup: the workspace packages every README test installs, packed once before any
 * test file runs (the files run side by side, and two packs of one package at once collide), into
 * a directory the files read with `inject('tarballDir')` and which is removed after the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packWorkspace } from '../src/outside-project.js';

/** Every package a README test installs from its tarball. */
export const PACKED_PACKAGES = [
  'packages/core',
  'packages/store',
  'packages/sandbox',
  'packages/cli',
  'packages/express',
  'packages/koa',
  'packages/hono',
  'packages/fastify',
  'packages/nestjs',
  'contract-tests',
];

declare module 'vitest' {
  export interface ProvidedContext {
    tarballDir: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'bnpl-kit-tarballs-'));
  packWorkspace(PACKED_PACKAGES, dir);
  project.provide('tarballDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
