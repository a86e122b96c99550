import { type ClientRequest, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Connector, DeliveryOutcome, OutboundFile } from '../../domain/delivery';
import type { As2Fields } from '../../domain/partners';
import {
  As2CmsError,
  assertKeyMatchesCertificate,
  CONTENT_CIPHERS,
  type ContentCipherName,
  compress,
  encryptEnveloped,
  loadCertificate,
  loadCertificateChain,
  loadPrivateKey,
  signDetached,
  verifyDetached,
} from './as2-cms';
import { parseMdnReport, sameMessageId, splitSigned } from './as2-mdn';
import {
  attachmentDisposition,
  base64Lines,
  buildEntity,
  buildMultipartBody,
  computeMic,
  formatHeaderValue,
  MIC_ALGORITHMS,
  type MicAlgorithmName,
  type MimeHeader,
  micAlgorithmOf,
  newBoundary,
  parseEntity,
  parseHeaderValue,
  parseMic,
} from './as2-mime';
import { delivered, describeNetworkError, errorText, excerpt, failed } from './failures';

/**
 * The AS2 connector (RFC 4130): builds the message as the connection's outbound settings say
 * (compress, then sign, then encrypt, per RFC 5402), POSTs it to the partner, and reads the
 * synchronous MDN: its signature checked against the partner's signing certificate, its
 * Original-Message-ID and Received-Content-MIC against what was sent.
 */

/** The largest response body read (an MDN is a few kilobytes). */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

type As2Settings = As2Fields['outboundSettings'];

/** A configuration the connector cannot act on; its message names the setting, never a secret. */
class As2SettingsError extends Error {}

export interface As2ConnectorOptions {
  /** The clock of the Date header and of the signing time. */
  now?: () => Date;
  /** The User-Agent header. */
  userAgent?: string;
}

interface MimePart {
  headers: MimeHeader[];
  body: Uint8Array;
}

/** What was built for one attempt. */
export interface As2Message {
  /** HTTP headers, the outer entity's headers among them. */
  headers: Record<string, string>;
  body: Uint8Array;
  /** `<...>` as sent. */
  messageId: string;
  /** The MIC the MDN should return, `base64, micalg`. */
  mic: string;
  /**
   * The octets a receiver may digest for the MIC: first the one RFC 4130 section 7.3.1 names for
   * this structure, then the readings partners also use (with or without compression).
   */
  micInputs: Uint8Array[];
  mdn: 'none' | 'sync';
  /** Set when a signed MDN is requested. */
  mdnSigningAlgorithm: MicAlgorithmName | undefined;
}

/** The AS2 `Connector`. */
export class As2Connector implements Connector {
  private readonly now: () => Date;
  private readonly userAgent: string;

  constructor(options: As2ConnectorOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.userAgent = options.userAgent ?? 'edi-exchange AS2';
  }

  async deliver(file: OutboundFile, options: { timeoutMs: number }): Promise<DeliveryOutcome> {
    const connection = file.connection;
    if (connection.connectionType !== 'as2') return failed(`the AS2 connector cannot deliver to a ${connection.connectionType} connection`);
    const secrets = [
      connection.outboundSettings.basicAuth?.password,
      connection.localSigning?.passphrase,
      connection.localSigning?.privateKey,
    ];
    let url: URL;
    try {
      url = partnerUrl(connection.outboundSettings.partnerServerUrl);
    } catch (error) {
      return failed(errorText(error), secrets);
    }
    if (url.password) secrets.push(decodeURIComponent(url.password));
    const outcome = await this.attempt(file, connection, url, options.timeoutMs);
    return outcome.ok ? outcome : failed(outcome.message, secrets);
  }

  private async attempt(file: OutboundFile, connection: As2Fields, url: URL, timeoutMs: number): Promise<DeliveryOutcome> {
    let message: As2Message;
    try {
      message = await buildAs2Message(file, connection, { now: this.now(), userAgent: this.userAgent });
    } catch (error) {
      if (error instanceof As2SettingsError || error instanceof As2CmsError) return failed(error.message);
      return failed(`the AS2 message could not be built: ${errorText(error)}`);
    }
    const response = await post(url, message, timeoutMs);
    if (!response.ok) return failed(response.message);
    const { status, statusText } = response;
    if (status < 200 || status > 299) {
      const text = textExcerpt(response.body);
      return failed(`HTTP ${status}${statusText ? ` ${statusText}` : ''} from ${url.host}${text ? `: ${text}` : ''}`);
    }
    if (message.mdn === 'none') return delivered(`HTTP ${status}: accepted by ${url.host}; no MDN requested`);
    try {
      return await readMdn(response.headers, response.body, message, connection.partnerSigning?.publicCertificate);
    } catch (error) {
      return failed(`the MDN could not be read: ${errorText(error)}`);
    }
  }
}

/** A new AS2 connector. */
export function createAs2Connector(options: As2ConnectorOptions = {}): Connector {
  return new As2Connector(options);
}

// ---------------------------------------------------------------------------------------------
// Building the message

function partnerUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new As2SettingsError('outboundSettings.partnerServerUrl is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new As2SettingsError(`outboundSettings.partnerServerUrl must be http or https, not ${url.protocol.replace(':', '')}`);
  return url;
}

function signingAlgorithm(value: string | undefined, setting: string): MicAlgorithmName | undefined {
  if (value === undefined || value.toUpperCase() === 'NONE') return undefined;
  const algorithm = micAlgorithmOf(value);
  if (!algorithm) throw new As2SettingsError(`${setting} ${value} is not supported (SHA1, SHA256, SHA384, SHA512 or NONE)`);
  return algorithm;
}

function encryptionAlgorithm(value: string | undefined): ContentCipherName | undefined {
  if (value === undefined || value.toLowerCase() === 'none') return undefined;
  if (value in CONTENT_CIPHERS) return value as ContentCipherName;
  throw new As2SettingsError(`outboundSettings.encryptionAlgorithm ${value} is not supported (aes128_cbc, aes192_cbc, aes256_cbc or none)`);
}

function compression(value: string | undefined): boolean {
  if (value === undefined || value === 'DISABLED' || value.toUpperCase() === 'NONE') return false;
  if (value === 'ZLIB') return true;
  throw new As2SettingsError(`outboundSettings.compression ${value} is not supported (ZLIB or DISABLED)`);
}

function mdnMode(value: string | undefined): 'none' | 'sync' {
  if (value === undefined || value === 'none') return 'none';
  if (value === 'sync') return 'sync';
  throw new As2SettingsError(`outboundSettings.mdnResponse ${value} is not supported (sync or none; asynchronous MDNs are not)`);
}

/** An AS2 identifier as a header value: quoted when it has spaces or specials (RFC 4130 section 6.2). */
export function as2IdHeader(id: string): string {
  const text = headerText(id);
  return /^[!#-[\]-~]+$/.test(text) ? text : `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** `<id@domain>` with both sides reduced to dot-atom characters (RFC 5322 section 3.6.4). */
export function formatMessageId(messageId: string, localAs2Id: string): string {
  if (/^<[^<>\s@]+@[^<>\s@]+>$/.test(messageId)) return messageId;
  const atom = (text: string) => text.replace(/[^A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/g, '_').replace(/^\.+|\.+$/g, '') || 'as2';
  return `<${atom(messageId)}@${atom(localAs2Id)}>`;
}

/** A header value Node accepts and partners read: printable ASCII, anything else replaced by `_`. */
function headerText(value: string): string {
  return value.replace(/[^\u0020-\u007e]/g, '_');
}

function entityBytes(part: MimePart): Uint8Array {
  return buildEntity(part.headers, part.body);
}

/**
 * Builds the AS2 message of one attempt: the payload entity, then per the settings a
 * compressed-data entity, a multipart/signed entity and an enveloped-data entity, with the HTTP
 * headers of RFC 4130 section 6. Throws for settings or certificates it cannot use.
 */
export async function buildAs2Message(
  file: OutboundFile,
  connection: As2Fields,
  context: { now: Date; userAgent: string },
): Promise<As2Message> {
  const settings: As2Settings = connection.outboundSettings;
  const signing = signingAlgorithm(settings.signingAlgorithm, 'outboundSettings.signingAlgorithm');
  const cipher = encryptionAlgorithm(settings.encryptionAlgorithm);
  const compressed = compression(settings.compression);
  const mdn = mdnMode(settings.mdnResponse);
  const mdnSigning = mdn === 'sync' ? signingAlgorithm(settings.mdnSigningAlgorithm, 'outboundSettings.mdnSigningAlgorithm') : undefined;

  // Everything the settings need is checked before anything is built.
  const signer = signing ? localSigner(connection) : undefined;
  const recipient = cipher
    ? loadCertificate(
        required(connection.partnerEncryption?.publicCertificate, 'partnerEncryption.publicCertificate'),
        'partnerEncryption.publicCertificate',
      )
    : undefined;
  if (mdnSigning)
    loadCertificate(
      required(connection.partnerSigning?.publicCertificate, 'partnerSigning.publicCertificate'),
      'partnerSigning.publicCertificate',
    );

  const payload: MimePart = {
    headers: [
      ['Content-Type', headerText(file.contentType || 'application/octet-stream')],
      ['Content-Disposition', attachmentDisposition(file.filename)],
      ['Content-Transfer-Encoding', 'binary'],
    ],
    body: file.body,
  };
  const payloadEntity = entityBytes(payload);
  let current = payload;
  let compressedPart: MimePart | undefined;
  if (compressed) {
    compressedPart = {
      headers: [
        ['Content-Type', formatHeaderValue('application/pkcs7-mime', { 'smime-type': 'compressed-data', name: 'smime.p7z' })],
        ['Content-Transfer-Encoding', 'binary'],
        ['Content-Disposition', 'attachment; filename="smime.p7z"'],
      ],
      body: compress(payloadEntity),
    };
    current = compressedPart;
  }

  const micAlgorithm = mdnSigning ?? signing ?? 'SHA1';
  let micInputs: Uint8Array[];
  if (signing && signer) {
    const signedContent = entityBytes(current);
    const signature = await signDetached({
      content: signedContent,
      privateKey: signer.key,
      certificate: signer.certificate,
      chain: signer.chain,
      algorithm: signing,
      signingTime: context.now,
    });
    const signaturePart: MimePart = {
      headers: [
        ['Content-Type', formatHeaderValue('application/pkcs7-signature', { name: 'smime.p7s' })],
        ['Content-Transfer-Encoding', 'base64'],
        ['Content-Disposition', 'attachment; filename="smime.p7s"'],
      ],
      body: new TextEncoder().encode(base64Lines(signature)),
    };
    const boundary = newBoundary();
    current = {
      headers: [
        [
          'Content-Type',
          formatHeaderValue('multipart/signed', {
            protocol: 'application/pkcs7-signature',
            micalg: MIC_ALGORITHMS[signing].micalg,
            boundary,
          }),
        ],
      ],
      body: buildMultipartBody([signedContent, entityBytes(signaturePart)], boundary),
    };
    micInputs = [signedContent, ...(compressed ? [payloadEntity] : [])];
  } else if (cipher) {
    micInputs = [entityBytes(current), ...(compressedPart ? [payloadEntity] : []), file.body];
  } else {
    micInputs = [current.body, payloadEntity, ...(compressedPart ? [entityBytes(compressedPart)] : [])];
  }

  let outer = current;
  if (cipher && recipient) {
    outer = {
      headers: [
        ['Content-Type', formatHeaderValue('application/pkcs7-mime', { 'smime-type': 'enveloped-data', name: 'smime.p7m' })],
        ['Content-Transfer-Encoding', 'binary'],
        ['Content-Disposition', 'attachment; filename="smime.p7m"'],
      ],
      body: encryptEnveloped(entityBytes(current), recipient, cipher),
    };
  }

  const messageId = formatMessageId(file.messageId, connection.localAs2Id);
  const headers: Record<string, string> = {
    'AS2-Version': '1.2',
    'AS2-From': as2IdHeader(connection.localAs2Id),
    'AS2-To': as2IdHeader(connection.partnerAs2Id),
    'Message-ID': messageId,
    Subject: headerText(`EDI file ${file.filename}`),
    Date: context.now.toUTCString(),
    'MIME-Version': '1.0',
    'User-Agent': context.userAgent,
  };
  for (const [name, value] of outer.headers) headers[name] = value;
  if (mdn === 'sync') {
    headers['Disposition-Notification-To'] = headerText(connection.localAs2Id);
    if (mdnSigning)
      headers['Disposition-Notification-Options'] =
        `signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, ${MIC_ALGORITHMS[mdnSigning].micalg}`;
  }
  const auth = settings.basicAuth;
  if (auth?.username) headers.Authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password ?? ''}`).toString('base64')}`;
  headers['Content-Length'] = String(outer.body.length);
  return {
    headers,
    body: outer.body,
    messageId,
    mic: computeMic(micInputs[0]!, micAlgorithm),
    micInputs,
    mdn,
    mdnSigningAlgorithm: mdnSigning,
  };
}

function required(value: string | undefined, setting: string): string {
  if (!value?.trim()) throw new As2SettingsError(`${setting} is required by the outbound settings but not set`);
  return value;
}

function localSigner(connection: As2Fields) {
  const local = connection.localSigning;
  const certificate = loadCertificate(
    required(local?.publicCertificate, 'localSigning.publicCertificate'),
    'localSigning.publicCertificate',
  );
  const key = loadPrivateKey(required(local?.privateKey, 'localSigning.privateKey'), local?.passphrase, 'localSigning.privateKey');
  assertKeyMatchesCertificate(key, certificate, 'localSigning');
  const chain = loadCertificateChain(local?.certificateChain, 'localSigning.certificateChain');
  return { certificate, key, chain };
}

// ---------------------------------------------------------------------------------------------
// HTTP

type PostResult =
  | { ok: true; status: number; statusText: string; headers: IncomingHttpHeaders; body: Uint8Array }
  | { ok: false; message: string };

function post(url: URL, message: As2Message, timeoutMs: number): Promise<PostResult> {
  const where = url.host;
  return new Promise((resolve) => {
    let settled = false;
    let request: ClientRequest | undefined;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, message: `timed out after ${timeoutMs} ms waiting for ${where}` }), timeoutMs);
    const onResponse = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES)
          finish({ ok: false, message: `the response from ${where} is larger than ${MAX_RESPONSE_BYTES} bytes` });
        else chunks.push(chunk);
      });
      response.on('end', () =>
        finish({
          ok: true,
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: response.headers,
          body: new Uint8Array(Buffer.concat(chunks)),
        }),
      );
      response.on('error', (error) => finish({ ok: false, message: networkMessage(error, url) }));
      response.on('close', () => finish({ ok: false, message: `${where} closed the connection before the response was complete` }));
    };
    try {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      request = send(url, { method: 'POST', headers: message.headers, agent: false }, onResponse);
    } catch (error) {
      finish({ ok: false, message: `the request to ${where} could not be sent: ${errorText(error)}` });
      return;
    }
    request.on('error', (error) => finish({ ok: false, message: networkMessage(error, url) }));
    request.end(message.body);
  });
}

function networkMessage(error: Error, url: URL): string {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  return describeNetworkError(error, { host, port }) ?? `the request to ${url.host} failed: ${errorText(error)}`;
}

/** The start of a remote text answer on one line; nothing for a binary one. */
function textExcerpt(body: Uint8Array): string {
  const text = Buffer.from(body.subarray(0, 1024)).toString('utf8');
  return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? '' : excerpt(text);
}

// ---------------------------------------------------------------------------------------------
// The synchronous MDN

async function readMdn(
  httpHeaders: IncomingHttpHeaders,
  body: Uint8Array,
  sent: As2Message,
  partnerSigningPem: string | undefined,
): Promise<DeliveryOutcome> {
  const contentType = httpHeaders['content-type'];
  if (!contentType) return { ok: false, message: 'no MDN: the response has no Content-Type' };
  const entity = parseEntity(buildEntity([['Content-Type', contentType]], body));
  const type = parseHeaderValue(contentType).value;
  let report = entity;
  let signatureNote = '';
  if (type === 'multipart/signed') {
    const signed = splitSigned(entity);
    if (!signed.ok) return { ok: false, message: `MDN signature could not be read: ${signed.reason}` };
    if (!partnerSigningPem?.trim())
      return { ok: false, message: 'MDN signature cannot be verified: the connection has no partnerSigning.publicCertificate' };
    try {
      await verifyDetached(
        signed.value.signature,
        signed.value.content.raw,
        loadCertificate(partnerSigningPem, 'partnerSigning.publicCertificate'),
      );
    } catch (error) {
      if (error instanceof As2CmsError) return { ok: false, message: `MDN signature verification failed: ${error.message}` };
      throw error;
    }
    report = signed.value.content;
    signatureNote = '; MDN signature verified';
  } else if (type === 'multipart/report') {
    if (sent.mdnSigningAlgorithm)
      return { ok: false, message: 'MDN signature missing: a signed MDN was requested but the MDN is not signed' };
  } else {
    const snippet = textExcerpt(body);
    return { ok: false, message: `no MDN: the response is ${type || 'untyped'}${snippet ? `: ${snippet}` : ''}` };
  }

  const parsed = parseMdnReport(report);
  if (!parsed.ok) return { ok: false, message: `the MDN could not be read: ${parsed.reason}` };
  const mdn = parsed.value;
  if (mdn.originalMessageId && !sameMessageId(mdn.originalMessageId, sent.messageId))
    return { ok: false, message: `the MDN is for another message: Original-Message-ID ${mdn.originalMessageId}, sent ${sent.messageId}` };
  const disposition = `MDN: ${mdn.disposition.text}`;
  if (!mdn.disposition.processed) return { ok: false, message: disposition };

  if (!mdn.receivedContentMic) {
    if (sent.mdnSigningAlgorithm) return { ok: false, message: `${disposition} (no Received-Content-MIC in a signed MDN)` };
    return { ok: true, message: `${disposition} (no MIC returned${signatureNote})` };
  }
  const mic = parseMic(mdn.receivedContentMic);
  if (!mic.algorithm)
    return { ok: false, message: `${disposition} (Received-Content-MIC uses unsupported algorithm ${mic.micalg || 'none'})` };
  const algorithm = mic.algorithm;
  const matches = sent.micInputs.some((input) => parseMic(computeMic(input, algorithm)).digest === mic.digest);
  if (!matches)
    return {
      ok: false,
      message: `${disposition} but the MIC does not match: received ${mdn.receivedContentMic}, expected ${computeMic(sent.micInputs[0]!, algorithm)}`,
    };
  return { ok: true, message: `${disposition} (MIC verified${signatureNote})` };
}
