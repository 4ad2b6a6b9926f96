/** `bnpl-kit keygen`: a fresh Ed25519 key pair in the forms the configuration takes. */
import { generateKeyPair } from '@bnpl-kit/core/testing';
import type { CommandModule } from '../index.js';

export const keygenCommand: CommandModule = (program, io) => {
  program
    .command('keygen')
    .description('print a new Ed25519 key pair: public key as base64url and PEM, private key as PKCS#8 PEM')
    .option('--json', 'print { publicKey, publicKeyPem, privateKeyPem } as JSON')
    .action(async (options: { json?: boolean }) => {
      const pair = await generateKeyPair();
      if (options.json) {
        const { publicKey, publicKeyPem, privateKeyPem } = pair;
        io.stdout(`${JSON.stringify({ publicKey, publicKeyPem, privateKeyPem }, null, 2)}\n`);
        return;
      }
      io.stdout(
        [
          '# Public key, base64url (SERVICE_PUBLIC_KEY of the verifying side)',
          pair.publicKey,
          '',
          '# Public key, PEM (SPKI)',
          pair.publicKeyPem,
          '# Private key, PKCS#8 PEM (the signing key: keep it secret)',
          pair.privateKeyPem,
        ].join('\n'),
      );
    });
};
