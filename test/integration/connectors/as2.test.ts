import { createHash, createPrivateKey } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateSync } from 'node:zlib';
import * as asn1js from 'asn1js';
import { generate } from 'selfsigned';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAs2Connector } from '../../../lambdas/adapters/connectors/as2';
import { cmsContentType, compress, decompress, OID } from '../../../lambdas/adapters/connectors/as2-cms';
import { computeMic } from '../../../lambdas/adapters/connectors/as2-mime';
import type { OutboundFile } from '../../../lambdas/domain/delivery';
import type { As2Fields, As2OutboundSettings, ConnectionRecord } from '../../../lambdas/domain/partners';
import { type As2ServerOptions, type As2TestServer, startAs2Server } from '../../helpers/servers/as2-server';

interface Identity {
  certificate: string;
  privateKey: string;
}

const SENDER_ID = 'EDI SENDER';
const RECEIVER_ID = 'PARTNER-AS2';
const PASSPHRASE = 'test-only-passphrase';
const PAYLOAD = new TextEncoder().encode(
  'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *240101*1200*^*00501*000000001*0*T*:~\n' +
    'GS*HC*SENDER*RECEIVER*20240101*1200*1*X*005010X222A1~ST*837*0001~SE*2*0001~GE*1*1~IEA*1*000000001~\r\n\u00e9\u0000\u00ff',
);

let receiver: Identity;
/** The sender's key as encrypted PKCS#8 (PASSPHRASE) and as clear PKCS#1. */
let sender: Identity & { pkcs1: string };
let impostor: Identity;
const servers: As2TestServer[] = [];

async function identity(commonName: string, passphrase?: string): Promise<Identity> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    ],
    ...(passphrase ? { passphrase } : {}),
  });
  return { certificate: pems.cert, privateKey: pems.private };
}

beforeAll(async () => {
  const [r, s, i] = await Promise.all([identity('as2 receiver'), identity('as2 sender', PASSPHRASE), identity('as2 impostor')]);
  receiver = r;
  impostor = i;
  const pkcs1 = createPrivateKey({ key: s.privateKey, passphrase: PASSPHRASE }).export({ type: 'pkcs1', format: 'pem' }).toString();
  sender = { ...s, pkcs1 };
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Partial<As2ServerOptions> = {}): Promise<As2TestServer> {
  const server = await startAs2Server({
    as2Id: RECEIVER_ID,
    certificate: receiver.certificate,
    privateKey: receiver.privateKey,
    partnerCertificate: sender.certificate,
    ...options,
  });
  servers.push(server);
  return server;
}

function connection(url: string, settings: Partial<As2OutboundSettings>, certificates: Partial<As2Fields> = {}): ConnectionRecord {
  return {
    connectionType: 'as2',
    partnershipId: 'p-1',
    connectionId: 'c-1',
    name: 'partner AS2',
    enabled: true,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    localAs2Id: SENDER_ID,
    partnerAs2Id: RECEIVER_ID,
    outboundSettings: {
      partnerServerUrl: url,
      signingAlgorithm: 'SHA256',
      encryptionAlgorithm: 'aes256_cbc',
      compression: 'ZLIB',
      mdnResponse: 'sync',
      mdnSigningAlgorithm: 'SHA256',
      ...settings,
    },
    localSigning: { publicCertificate: sender.certificate, privateKey: sender.privateKey, passphrase: PASSPHRASE },
    partnerEncryption: { publicCertificate: receiver.certificate },
    partnerSigning: { publicCertificate: receiver.certificate },
    ...certificates,
  };
}

function file(record: ConnectionRecord, messageId = 'msg-0001'): OutboundFile {
  return { connection: record, directory: '', filename: 'claims 837.edi', body: PAYLOAD, contentType: 'application/edi-x12', messageId };
}

const as2 = createAs2Connector();

describe('Class: As2Connector', () => {
  describe('Method: deliver', () => {
    it('delivers a compressed, SHA256-signed, AES-256 encrypted file and verifies the signed MDN', async () => {
      const server = await start();

      const outcome = await as2.deliver(file(connection(server.url, {})), { timeoutMs: 10_000 });

      expect(outcome.ok).toBe(true);
      expect(outcome.message).toBe('MDN: automatic-action/MDN-sent-automatically; processed (MIC verified; MDN signature verified)');
      expect(server.received).toHaveLength(1);
      const got = server.received[0]!;
      expect(got).toMatchObject({ signed: true, encrypted: true, compressed: true, disposition: 'processed', filename: 'claims 837.edi' });
      expect(got.contentType).toBe('application/edi-x12');
      expect(Buffer.from(got.payload!).equals(Buffer.from(PAYLOAD))).toBe(true);
      expect(got.headers['as2-version']).toBe('1.2');
      expect(got.as2From).toBe('"EDI SENDER"');
      expect(got.as2To).toBe(RECEIVER_ID);
      expect(got.messageId).toBe('<msg-0001@EDI_SENDER>');
      expect(got.headers['content-type']).toContain('application/pkcs7-mime; smime-type=enveloped-data');
      expect(got.headers['disposition-notification-options']).toBe(
        'signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256',
      );
      expect(got.mic).toBe(`${createHash('sha256').update(got.micInput!).digest('base64')}, sha-256`);
      // The signed content is the compressed-data entity (compress, then sign).
      expect(Buffer.from(got.micInput!).toString('latin1')).toMatch(/^Content-Type: application\/pkcs7-mime; smime-type=compressed-data/);
    });

    it('signs with SHA1 using a PKCS#1 key, unencrypted, with basic auth', async () => {
      const server = await start({ basicAuth: { username: 'sender', password: 'right' } });
      const record = connection(
        server.url,
        {
          signingAlgorithm: 'SHA1',
          mdnSigningAlgorithm: 'SHA1',
          encryptionAlgorithm: 'none',
          compression: 'DISABLED',
          basicAuth: { username: 'sender', password: 'right' },
        },
        { localSigning: { publicCertificate: sender.certificate, privateKey: sender.pkcs1 } },
      );

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome).toEqual({
        ok: true,
        message: 'MDN: automatic-action/MDN-sent-automatically; processed (MIC verified; MDN signature verified)',
      });
      const got = server.received[0]!;
      expect(got).toMatchObject({ signed: true, encrypted: false, compressed: false });
      expect(got.headers['content-type']).toMatch(/^multipart\/signed; protocol="application\/pkcs7-signature"; micalg=sha1; boundary=/);
      expect(got.mic).toMatch(/, sha1$/);
      expect(Buffer.from(got.payload!).equals(Buffer.from(PAYLOAD))).toBe(true);
    });

    it('sends unsigned, unencrypted content and succeeds on HTTP 200 when no MDN is requested', async () => {
      const server = await start();
      const record = connection(server.url, {
        signingAlgorithm: 'NONE',
        encryptionAlgorithm: 'none',
        compression: 'DISABLED',
        mdnResponse: 'none',
      });

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome.ok).toBe(true);
      expect(outcome.message).toMatch(/^HTTP 200: accepted by 127\.0\.0\.1:\d+; no MDN requested$/);
      const got = server.received[0]!;
      expect(got.headers['disposition-notification-to']).toBeUndefined();
      expect(got.headers['content-type']).toBe('application/edi-x12');
      expect(got.filename).toBe('claims 837.edi');
      expect(Buffer.from(got.payload!).equals(Buffer.from(PAYLOAD))).toBe(true);
    });

    it.each(['aes128_cbc', 'aes192_cbc'])('encrypts with %s and checks the MIC of an unsigned MDN', async (algorithm) => {
      const server = await start();
      const record = connection(server.url, {
        encryptionAlgorithm: algorithm,
        signingAlgorithm: 'NONE',
        mdnSigningAlgorithm: 'NONE',
        compression: 'DISABLED',
      });

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome).toEqual({ ok: true, message: 'MDN: automatic-action/MDN-sent-automatically; processed (MIC verified)' });
      const got = server.received[0]!;
      expect(got).toMatchObject({ encrypted: true, signed: false });
      expect(Buffer.from(got.payload!).equals(Buffer.from(PAYLOAD))).toBe(true);
    });

    it('fails with the MDN error disposition when the receiver rejects the signature', async () => {
      const server = await start();
      const record = connection(
        server.url,
        {},
        { localSigning: { publicCertificate: impostor.certificate, privateKey: impostor.privateKey } },
      );

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome).toEqual({
        ok: false,
        message: 'MDN: automatic-action/MDN-sent-automatically; processed/error: authentication-failed',
      });
      expect(server.received[0]?.payload).toBeUndefined();
    });

    it('fails with decryption-failed when the file is encrypted for another certificate', async () => {
      const server = await start();
      const record = connection(server.url, {}, { partnerEncryption: { publicCertificate: impostor.certificate } });

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome.ok).toBe(false);
      expect(outcome.message).toBe('MDN: automatic-action/MDN-sent-automatically; processed/error: decryption-failed');
    });

    it('fails when the MDN signature does not verify', async () => {
      const server = await start({ tamperMdn: 'signature' });

      const outcome = await as2.deliver(file(connection(server.url, {})), { timeoutMs: 10_000 });

      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(/^MDN signature verification failed: /);
      expect(server.received).toHaveLength(1);
    });

    it('fails when the MDN is signed by a key other than the partner signing certificate', async () => {
      const server = await start();
      const record = connection(server.url, {}, { partnerSigning: { publicCertificate: impostor.certificate } });

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome).toEqual({
        ok: false,
        message: 'MDN signature verification failed: the signature was not made with the configured certificate',
      });
    });

    it('fails when the MDN returns another MIC', async () => {
      const server = await start({ tamperMdn: 'mic' });

      const outcome = await as2.deliver(file(connection(server.url, {})), { timeoutMs: 10_000 });

      expect(outcome.ok).toBe(false);
      expect(outcome.message).toContain('processed but the MIC does not match: received ');
      expect(outcome.message).toContain(`expected ${server.received[0]!.mic}`);
    });

    it('fails with the status on HTTP 500', async () => {
      const server = await start({ respondStatus: 500 });

      const outcome = await as2.deliver(file(connection(server.url, {})), { timeoutMs: 10_000 });

      expect(outcome).toEqual({ ok: false, message: `HTTP 500 Internal Server Error from 127.0.0.1:${server.port}: simulated failure` });
    });

    it('fails with 401 when the basic auth password is wrong', async () => {
      const server = await start({ basicAuth: { username: 'sender', password: 'right' } });
      const record = connection(server.url, { basicAuth: { username: 'sender', password: 'wrong' } });

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(/^HTTP 401 Unauthorized from 127\.0\.0\.1:\d+/);
      expect(outcome.message).not.toContain('wrong');
      expect(server.received).toHaveLength(0);
    });

    it('fails naming ECONNREFUSED and host:port when nothing listens', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));

      const outcome = await as2.deliver(file(connection(`http://127.0.0.1:${port}/as2`, {})), { timeoutMs: 10_000 });

      expect(outcome).toEqual({ ok: false, message: `connection refused by 127.0.0.1:${port} (ECONNREFUSED)` });
    });

    it('fails after timeoutMs when the server never answers', async () => {
      const server = await start({ stall: true });

      const outcome = await as2.deliver(file(connection(server.url, {})), { timeoutMs: 500 });

      expect(outcome).toEqual({ ok: false, message: `timed out after 500 ms waiting for 127.0.0.1:${server.port}` });
      expect(server.requestCount()).toBe(1);
    });

    it('refuses to send when a signed MDN is requested but no partner signing certificate is set', async () => {
      const server = await start();
      const record = connection(server.url, {}, { partnerSigning: undefined });

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome).toEqual({ ok: false, message: 'partnerSigning.publicCertificate is required by the outbound settings but not set' });
      expect(server.requestCount()).toBe(0);
    });

    it('refuses to send with a wrong key passphrase, without quoting it', async () => {
      const server = await start();
      const record = connection(
        server.url,
        {},
        { localSigning: { publicCertificate: sender.certificate, privateKey: sender.privateKey, passphrase: 'not-the-passphrase' } },
      );

      const outcome = await as2.deliver(file(record), { timeoutMs: 10_000 });

      expect(outcome.ok).toBe(false);
      expect(outcome.message).toBe('localSigning.privateKey could not be read: not a PEM private key, or a wrong passphrase');
      expect(server.requestCount()).toBe(0);
    });
  });
});

describe('Function: compress', () => {
  it('builds an RFC 3274 CompressedData that decodes back to the content', () => {
    const content = new TextEncoder().encode(`Content-Type: application/edi-x12\r\n\r\n${'ISA*00~'.repeat(500)}`);

    const der = compress(content);

    expect(cmsContentType(der)).toBe(OID.compressedData);
    expect(der.length).toBeLessThan(content.length);
    expect(Buffer.from(decompress(der)).equals(Buffer.from(content))).toBe(true);
    // Decoded independently: ContentInfo [0] -> CompressedData -> encapContentInfo [0] -> OCTET STRING (zlib).
    const info = asn1js.fromBER(der.slice().buffer).result as asn1js.Sequence;
    const compressedData = (info.valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.Sequence;
    const [version, algorithm, encapsulated] = compressedData.valueBlock.value as [asn1js.Integer, asn1js.Sequence, asn1js.Sequence];
    expect(version.valueBlock.valueDec).toBe(0);
    expect((algorithm.valueBlock.value[0] as asn1js.ObjectIdentifier).valueBlock.toString()).toBe('1.2.840.113549.1.9.16.3.8');
    const octets = (encapsulated.valueBlock.value[1] as asn1js.Constructed).valueBlock.value[0] as asn1js.OctetString;
    expect(Buffer.from(inflateSync(Buffer.from(octets.getValue()))).equals(Buffer.from(content))).toBe(true);
  });
});

describe('Function: computeMic', () => {
  it('is the base64 digest of the exact octets followed by the micalg', () => {
    expect(computeMic(new TextEncoder().encode('abc'), 'SHA256')).toBe('ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=, sha-256');
    expect(computeMic(new TextEncoder().encode('abc'), 'SHA1')).toBe('qZk+NkcGgWq6PiVxeFDCbJzQ2J0=, sha1');
    const entity = new TextEncoder().encode('Content-Type: application/edi-x12\r\nContent-Transfer-Encoding: binary\r\n\r\nISA*00~\r\n');
    expect(computeMic(entity, 'SHA512')).toBe(`${createHash('sha512').update(entity).digest('base64')}, sha-512`);
    expect(computeMic(entity, 'SHA384')).toBe(`${createHash('sha384').update(entity).digest('base64')}, sha-384`);
  });
});
