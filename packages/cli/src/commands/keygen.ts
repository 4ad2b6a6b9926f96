/** `bnpl-kit keygen`: a fresh Ed25519 key pair in the forms the configuration takes. */
import { writeFile } from 'node:fs/promises';
import { generateKeyPair } from '@bnpl-kit/core/testing';
import type { CommandModule } from '../index.js';

export const keygenCommand: CommandModule = (program, io) => {
  program
    .command('keygen')
    .description('print a new Ed25519 key pair: public key as base64url and PEM, private key as PKCS#8 PEM')
    .option('--json', 'print { publicKey, publicKeyPem, privateKeyPem } as JSON')
    .option(
      '--private-key-out <file>',
      'write the private key (PKCS#8 PEM, mode 0600) to this file and print only the public key',
    )
    .action(async (options: { json?: boolean; privateKeyOut?: string }) => {
      const pair = await generateKeyPair();
      const { publicKey, publicKeyPem, privateKeyPem } = pair;
      if (options.privateKeyOut !== undefined) {
        // `flag: 'wx'`: never overwrite a key someone may still need.
        await writeFile(options.privateKeyOut, privateKeyPem, { mode: 0o600, flag: 'wx' });
        io.stdout(
          options.json ? `${JSON.stringify({ publicKey, publicKeyPem }, null, 2)}\n` : `${publicKey}\n`,
        );
        return;
      }
      if (options.json) {
        io.stdout(`${JSON.stringify({ publicKey, publicKeyPem, privateKeyPem }, null, 2)}\n`);
        return;
      }
      io.stdout(
        [
          '# Public key, base64url (SERVICE_PUBLIC_KEY of the verifying side)',
          publicKey,
          '',
          '# Public key, PEM (SPKI)',
          publicKeyPem,
          '# Private key, PKCS#8 PEM (the signing key: keep it secret)',
          privateKeyPem,
        ].join('\n'),
      );
    });
};
