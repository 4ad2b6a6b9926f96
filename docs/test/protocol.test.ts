/**
 * docs/protocol.md is the published contract: every "WIRE §n" cited anywhere in the repository's
 * tracked files (code, README, check metadata, CLI and certify output strings, the OpenAPI
 * documents) must have a `§n` heading there, and its worked examples must be what the kit computes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type ClaimObject, verifyWebhook } from '@bnpl-kit/core';
import {
  allScopesHash,
  allScopesHashInput,
  buildClaimTokens,
  canonicalJson,
  priorArtJson,
  webhookBodyDigest,
  webhookMessage,
} from '@bnpl-kit/core/wire';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/protocol.md', root), 'utf8');
const vectors = JSON.parse(
  readFileSync(new URL('packages/core/test/fixtures/webhook-and-claims.json', root), 'utf8'),
) as { signing_key_pkcs8_pem: string; public_key: string };

/** `WIRE §4`, and the further sections of a list: `WIRE §4, §6` or `WIRE §3 and §7`. */
function citedSections(text: string): number[] {
  const out: number[] = [];
  for (const match of text.matchAll(/WIRE\s*§\s*(\d+)((?:\s*(?:,|and|or|&)\s*§\s*\d+)*)/g)) {
    out.push(Number(match[1]));
    for (const more of (match[2] ?? '').matchAll(/§\s*(\d+)/g)) out.push(Number(more[1]));
  }
  return out;
}

function headingExists(section: number): boolean {
  return new RegExp(`^#+ *(§ *)?${section}[.: ]`, 'm').test(doc);
}

/** A `label: value` line of a worked example. */
function exampleValue(label: string): string {
  const match = doc.match(new RegExp(`^${label.replace(/[()]/g, '\\$&')}: +(\\S.*)$`, 'm'));
  if (!match) throw new Error(`docs/protocol.md has no "${label}:" line`);
  return match[1]!.trim();
}

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.split('\0').filter((f) => f.length > 0);
}

describe('docs/protocol.md: citations', () => {
  it('finds citations in all their written forms', () => {
    expect(citedSections('see WIRE §4, WIRE §6 and (WIRE §3, §7) or WIRE § 2 and §8; not WIRE §n')).toEqual([
      4, 6, 3, 7, 2, 8,
    ]);
  });

  it('has a heading for every section cited in a tracked file', () => {
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(100);
    const dangling: string[] = [];
    let citations = 0;
    for (const file of files) {
      if (/\.(png|jpe?g|gif|ico|woff2?|lockb?)$/i.test(file) || file.endsWith('pnpm-lock.yaml')) continue;
      let text: string;
      try {
        text = readFileSync(new URL(file, root), 'utf8');
      } catch {
        continue; // deleted in the work tree but still tracked
      }
      for (const section of citedSections(text)) {
        citations++;
        if (!headingExists(section)) dangling.push(`${file}: WIRE §${section}`);
      }
    }
    expect(citations).toBeGreaterThan(100);
    expect(dangling).toEqual([]);
  });

  it('names only documents the repository has (the protocol is docs/protocol.md)', () => {
    const files = trackedFiles();
    const documents = new Set(files.filter((f) => f.endsWith('.md')).map((f) => f.split('/').pop()!));
    // The interface specification is shared with the service's authors, not kept in this repository.
    const elsewhere = new Set(['interface.md']);
    const ghosts: string[] = [];
    for (const file of files) {
      if (!/\.(ts|tsx|mjs|js|md|json|yaml|yml|html|css)$/.test(file) || file.endsWith('pnpm-lock.yaml'))
        continue;
      let text: string;
      try {
        text = readFileSync(new URL(file, root), 'utf8');
      } catch {
        continue;
      }
      for (const match of text.matchAll(/\b([A-Za-z0-9_-]+\.md)\b/g)) {
        if (!documents.has(match[1]!) && !elsewhere.has(match[1]!)) ghosts.push(`${file}: ${match[1]}`);
      }
      for (const match of text.matchAll(/\bARCHITECTURE(?:\.md)? habit \d+/g))
        ghosts.push(`${file}: ${match[0]}`);
    }
    expect(ghosts).toEqual([]);
  });

  it('keeps the numbering of the wire decisions, §1 to §8', () => {
    for (let section = 1; section <= 8; section++) expect(headingExists(section), `§${section}`).toBe(true);
  });
});

describe('docs/protocol.md: worked examples', () => {
  it('§9.1: digest, signing string and signature of the first vector', async () => {
    const body = exampleValue('body');
    const digest = await webhookBodyDigest(body);
    expect(exampleValue('digest')).toBe(digest);
    const message = webhookMessage({
      method: 'POST',
      url: 'https://market.example.com/v1/webhook',
      eventId: exampleValue('event id'),
      timestamp: exampleValue('timestamp'),
      bodyDigest: digest,
    });
    expect(doc).toContain(`\`\`\`\n${message}\n\`\`\``);
    expect(exampleValue('public key')).toBe(vectors.public_key);
    const verified = await verifyWebhook(
      {
        method: 'POST',
        url: 'https://market.example.com/v1/webhook',
        headers: new Headers({
          Signature: exampleValue('signature'),
          'X-Signature-Algorithm': 'EdDSA',
          'X-Event-Id': exampleValue('event id'),
          'X-Event-Timestamp': exampleValue('timestamp'),
        }),
        body: new TextEncoder().encode(body),
      },
      { keys: exampleValue('public key'), now: Date.parse(exampleValue('timestamp')) },
    );
    expect(verified.eventId).toBe('evt_0001');
  });

  it('§9.2: canonical JSON, scope_hash, token and the all-scopes hash', async () => {
    const claims = JSON.parse(doc.match(/```json\n(\{\n {2}"phone"[\s\S]*?)```/)![1]!) as ClaimObject;
    const phone = claims.phone!;
    expect(exampleValue('canonical')).toBe(canonicalJson(phone));
    const [token] = (
      await buildClaimTokens({
        claims,
        organizationId: 'org-1',
        credifyId: 'cred-1',
        signingKey: vectors.signing_key_pkcs8_pem,
        iat: 1795255200,
      })
    ).filter((t) => t.scopeName === 'phone');
    expect(exampleValue('scope_hash')).toBe(token!.scopeHash);
    expect(exampleValue('token')).toBe(token!.token);
    expect(doc).toContain(JSON.stringify(decodeJwt(token!.token)));
    const commitment = phone.phone_commitment as string;
    expect(exampleValue('all-scopes input')).toBe(
      priorArtJson(allScopesHashInput(claims, 'phone', commitment)),
    );
    expect(exampleValue('all-scopes hash')).toBe(await allScopesHash(claims, 'phone', commitment));
  });
});
