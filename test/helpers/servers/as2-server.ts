import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  As2CmsError,
  cmsContentType,
  decompress,
  decryptEnveloped,
  loadCertificate,
  loadPrivateKey,
  OID,
  signDetached,
  verifyDetached,
} from '../../../lambdas/adapters/connectors/as2-cms';
import { splitSigned } from '../../../lambdas/adapters/connectors/as2-mdn';
import {
  base64Lines,
  buildEntity,
  buildMultipartBody,
  computeMic,
  concatBytes,
  decodedBody,
  dispositionFilename,
  formatHeaderValue,
  getHeader,
  MIC_ALGORITHMS,
  type MicAlgorithmName,
  type MimeEntity,
  type MimeHeader,
  micAlgorithmOf,
  newBoundary,
  parseEntity,
  parseHeaderValue,
} from '../../../lambdas/adapters/connectors/as2-mime';

/**
 * An AS2 receiver for tests (RFC 4130), on 127.0.0.1 and a free port: decrypts with its own key,
 * verifies the sender's signature with the configured certificate, decompresses, records what it
 * received and answers with a synchronous MDN (signed when asked), or with the failures a test
 * asks for.
 */

export interface As2ServerOptions {
  /** The receiver's AS2 id: the AS2-To it expects and the AS2-From of its MDNs. */
  as2Id: string;
  /** The receiver's certificate (PEM), for decryption and for signing MDNs. */
  certificate: string;
  /** The receiver's private key (PEM, unencrypted). */
  privateKey: string;
  /** The sender's signing certificate (PEM); signed messages fail authentication without it. */
  partnerCertificate?: string;
  /** When set, requests without these credentials get 401. */
  basicAuth?: { username: string; password: string };
  /** Answer every request with this HTTP status and no MDN. */
  respondStatus?: number;
  /** Never answer (the socket stays open until `close`). */
  stall?: boolean;
  /** Send an MDN whose signature does not verify, or whose MIC is wrong. */
  tamperMdn?: 'signature' | 'mic';
}

export interface ReceivedAs2Message {
  headers: IncomingHttpHeaders;
  as2From: string | undefined;
  as2To: string | undefined;
  messageId: string | undefined;
  signed: boolean;
  encrypted: boolean;
  compressed: boolean;
  /** The disposition sent back (`processed` or `processed/error: ...`). */
  disposition: string;
  /** The payload entity's file name and content type, when the message could be unpacked. */
  filename?: string;
  contentType?: string;
  payload?: Uint8Array;
  /** The octets the MIC covers, and the MIC as returned (before any tampering). */
  micInput?: Uint8Array;
  mic?: string;
}

export interface As2TestServer {
  url: string;
  port: number;
  /** Messages that got past authentication, in arrival order. */
  received: ReceivedAs2Message[];
  /** Every request, authenticated or not. */
  requestCount(): number;
  close(): Promise<void>;
}

interface Unpacked {
  error?: string;
  signed: boolean;
  encrypted: boolean;
  compressed: boolean;
  micInput?: Uint8Array;
  signerMicalg?: string;
  entity?: MimeEntity;
}

export async function startAs2Server(options: As2ServerOptions): Promise<As2TestServer> {
  const certificate = loadCertificate(options.certificate, 'receiver certificate');
  const privateKey = loadPrivateKey(options.privateKey, undefined, 'receiver key');
  const partner = options.partnerCertificate ? loadCertificate(options.partnerCertificate, 'partner certificate') : undefined;
  const received: ReceivedAs2Message[] = [];
  let requests = 0;

  const unpack = async (outer: MimeEntity): Promise<Unpacked> => {
    const state: Unpacked = { signed: false, encrypted: false, compressed: false };
    let entity = outer;
    for (let depth = 0; depth < 6; depth++) {
      const type = parseHeaderValue(getHeader(entity.headers, 'content-type') ?? '');
      if (type.value === 'application/pkcs7-mime' || type.value === 'application/x-pkcs7-mime') {
        const der = decodedBody(entity);
        const kind = type.params['smime-type'] ?? (cmsContentType(der) === OID.compressedData ? 'compressed-data' : 'enveloped-data');
        if (kind === 'enveloped-data') {
          try {
            const clear = decryptEnveloped(der, privateKey, certificate);
            entity = parseEntity(clear);
            state.encrypted = true;
            state.micInput = clear;
          } catch (error) {
            return { ...state, error: errorDisposition('decryption-failed', error) };
          }
        } else if (kind === 'compressed-data') {
          try {
            entity = parseEntity(decompress(der));
            state.compressed = true;
          } catch (error) {
            return { ...state, error: errorDisposition('decompression-failed', error) };
          }
        } else {
          return { ...state, error: 'processed/error: unexpected-processing-error' };
        }
        continue;
      }
      if (type.value === 'multipart/signed') {
        const signed = splitSigned(entity);
        if (!signed.ok || !partner) return { ...state, error: 'processed/error: authentication-failed' };
        try {
          await verifyDetached(signed.value.signature, signed.value.content.raw, partner);
        } catch (error) {
          return { ...state, error: errorDisposition('authentication-failed', error) };
        }
        state.signed = true;
        state.micInput = signed.value.content.raw;
        state.signerMicalg = signed.value.micalg;
        entity = signed.value.content;
        continue;
      }
      break;
    }
    // Neither signed nor encrypted: the MIC covers the content without headers (RFC 4130 7.3.1).
    if (!state.signed && !state.encrypted) state.micInput = outer.body;
    return { ...state, entity };
  };

  const respondMdn = async (
    res: ServerResponse,
    request: { messageId: string; as2From: string },
    disposition: string,
    mic: string | undefined,
    signAlgorithm: MicAlgorithmName | undefined,
  ) => {
    const reportBoundary = newBoundary();
    const fields = [
      'Reporting-UA: edi-exchange test AS2 receiver',
      `Original-Recipient: rfc822; ${options.as2Id}`,
      `Final-Recipient: rfc822; ${options.as2Id}`,
      `Original-Message-ID: ${request.messageId}`,
      ...(mic ? [`Received-Content-MIC: ${mic}`] : []),
      `Disposition: automatic-action/MDN-sent-automatically; ${disposition}`,
    ];
    const human = buildEntity(
      [
        ['Content-Type', 'text/plain; charset=us-ascii'],
        ['Content-Transfer-Encoding', '7bit'],
      ],
      text(`The message ${request.messageId} was received: ${disposition}.\r\n`),
    );
    const notification = buildEntity(
      [
        ['Content-Type', 'message/disposition-notification'],
        ['Content-Transfer-Encoding', '7bit'],
      ],
      text(`${fields.join('\r\n')}\r\n`),
    );
    const reportType = formatHeaderValue('multipart/report', { 'report-type': 'disposition-notification', boundary: reportBoundary });
    const reportBody = buildMultipartBody([human, notification], reportBoundary);
    let contentType = reportType;
    let body = reportBody;
    if (signAlgorithm) {
      const report = buildEntity([['Content-Type', reportType]], reportBody);
      const signature = await signDetached({ content: report, privateKey, certificate, algorithm: signAlgorithm });
      if (options.tamperMdn === 'signature') signature[signature.length - 1]! ^= 0xff;
      const signaturePart = buildEntity(
        [
          ['Content-Type', 'application/pkcs7-signature; name=smime.p7s'],
          ['Content-Transfer-Encoding', 'base64'],
        ],
        text(base64Lines(signature)),
      );
      const boundary = newBoundary();
      contentType = formatHeaderValue('multipart/signed', {
        protocol: 'application/pkcs7-signature',
        micalg: MIC_ALGORITHMS[signAlgorithm].micalg,
        boundary,
      });
      body = buildMultipartBody([report, signaturePart], boundary);
    }
    res.writeHead(200, {
      'AS2-Version': '1.2',
      'AS2-From': options.as2Id,
      'AS2-To': request.as2From,
      'Message-ID': `<mdn-${Date.now()}@as2-test-receiver>`,
      'MIME-Version': '1.0',
      'Content-Type': contentType,
      'Content-Length': String(body.length),
    });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    if (options.stall) return;
    if (options.basicAuth) {
      const expected = `Basic ${Buffer.from(`${options.basicAuth.username}:${options.basicAuth.password}`).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="as2"', 'Content-Type': 'text/plain' });
        res.end('authentication required');
        return;
      }
    }
    const body = await readBody(req);
    if (options.respondStatus) {
      res.writeHead(options.respondStatus, { 'Content-Type': 'text/plain' });
      res.end('simulated failure');
      return;
    }
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const messageId = header('message-id');
    const as2From = header('as2-from');
    const as2To = header('as2-to');
    const outerHeaders: MimeHeader[] = [];
    for (const name of ['content-type', 'content-disposition', 'content-transfer-encoding']) {
      const value = header(name);
      if (value) outerHeaders.push([name, value]);
    }
    const unpacked = await unpack(parseEntity(buildEntity(outerHeaders, body)));
    const expectedTo = unquote(as2To ?? '') === options.as2Id;
    const disposition = !expectedTo ? 'processed/error: authentication-failed' : (unpacked.error ?? 'processed');

    const notificationOptions = parseNotificationOptions(header('disposition-notification-options'));
    const micAlgorithm = notificationOptions.micalg ?? micAlgorithmOf(unpacked.signerMicalg) ?? 'SHA1';
    const mic = unpacked.micInput && !unpacked.error ? computeMic(unpacked.micInput, micAlgorithm) : undefined;
    const entity = unpacked.error ? undefined : unpacked.entity;
    received.push({
      headers: req.headers,
      as2From,
      as2To,
      messageId,
      signed: unpacked.signed,
      encrypted: unpacked.encrypted,
      compressed: unpacked.compressed,
      disposition,
      ...(entity
        ? {
            filename: dispositionFilename(getHeader(entity.headers, 'content-disposition')),
            contentType: getHeader(entity.headers, 'content-type'),
            payload: decodedBody(entity),
          }
        : {}),
      ...(unpacked.micInput ? { micInput: unpacked.micInput } : {}),
      ...(mic ? { mic } : {}),
    });
    if (!header('disposition-notification-to')) {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('received');
      return;
    }
    const returnedMic =
      mic && options.tamperMdn === 'mic' ? computeMic(concatBytes([unpacked.micInput!, text('tampered')]), micAlgorithm) : mic;
    await respondMdn(
      res,
      { messageId: messageId ?? '', as2From: as2From ?? '' },
      disposition,
      returnedMic,
      notificationOptions.signed ? micAlgorithm : undefined,
    );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('receiver failure');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/as2`,
    port,
    received,
    requestCount: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The disposition of an unpacking failure: a CMS failure names its kind, anything else is unexpected. */
function errorDisposition(kind: string, error: unknown): string {
  return error instanceof As2CmsError ? `processed/error: ${kind}` : 'processed/error: unexpected-processing-error';
}

function text(value: string): Uint8Array {
  return new TextEncoder().encode(value);
}

function unquote(value: string): string {
  const trimmed = value.trim();
  return trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).replace(/\\(.)/g, '$1') : trimmed;
}

/** `signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256, sha1` */
function parseNotificationOptions(value: string | undefined): { signed: boolean; micalg: MicAlgorithmName | undefined } {
  let signed = false;
  let micalg: MicAlgorithmName | undefined;
  for (const option of (value ?? '').split(';')) {
    const eq = option.indexOf('=');
    if (eq < 0) continue;
    const name = option.slice(0, eq).trim().toLowerCase();
    const [, ...values] = option
      .slice(eq + 1)
      .split(',')
      .map((v) => v.trim());
    if (name === 'signed-receipt-protocol') signed = values.some((v) => v.toLowerCase() === 'pkcs7-signature');
    if (name === 'signed-receipt-micalg') micalg = values.map(micAlgorithmOf).find((a) => a !== undefined);
  }
  return { signed, micalg };
}

function readBody(req: IncomingMessage): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}
