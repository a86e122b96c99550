import { createHash, randomBytes } from 'node:crypto';

/**
 * MIME building and parsing for AS2 (RFC 2045-2046, RFC 1847), and the AS2 message integrity
 * check (RFC 4130 section 7.3.1). Works on exact octets: an entity's raw bytes are kept so a
 * signature or a MIC is always computed over what was sent or received, never a re-serialization.
 */

const CRLF = '\r\n';
const encoder = new TextEncoder();

/** A header as it appears in an entity: the name with its original case, the unfolded value. */
export type MimeHeader = readonly [name: string, value: string];

/** A parsed MIME entity. */
export interface MimeEntity {
  headers: MimeHeader[];
  /** The body as transferred (no transfer decoding). */
  body: Uint8Array;
  /** The entity's exact bytes: headers, blank line and body. */
  raw: Uint8Array;
}

/** A header value split into its main value (lower-cased) and its parameters (names lower-cased). */
export interface HeaderValue {
  value: string;
  params: Record<string, string>;
}

/** Concatenates byte arrays. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Serializes an entity: `Name: value` lines with CRLF, a blank line, then the body bytes as they are. */
export function buildEntity(headers: readonly MimeHeader[], body: Uint8Array): Uint8Array {
  const head = headers.map(([name, value]) => `${name}: ${value}${CRLF}`).join('') + CRLF;
  return concatBytes([encoder.encode(head), body]);
}

/** Splits an entity into headers and body (CRLF expected; bare LF tolerated) and unfolds the headers. */
export function parseEntity(raw: Uint8Array): MimeEntity {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  let headerEnd: number;
  let bodyStart: number;
  if (bytes.subarray(0, 2).toString('latin1') === CRLF) {
    headerEnd = 0;
    bodyStart = 2;
  } else if (bytes[0] === 0x0a) {
    headerEnd = 0;
    bodyStart = 1;
  } else {
    const crlf = bytes.indexOf('\r\n\r\n');
    const lf = bytes.indexOf('\n\n');
    if (crlf >= 0 && (lf < 0 || crlf < lf)) {
      headerEnd = crlf;
      bodyStart = crlf + 4;
    } else if (lf >= 0) {
      headerEnd = lf;
      bodyStart = lf + 2;
    } else {
      headerEnd = bytes.length;
      bodyStart = bytes.length;
    }
  }
  return { headers: parseHeaderBlock(bytes.subarray(0, headerEnd).toString('utf8')), body: raw.subarray(bodyStart), raw };
}

/** Parses `Name: value` lines, unfolding continuation lines; lines without a colon are ignored. */
export function parseHeaderBlock(text: string): MimeHeader[] {
  const headers: Array<[string, string]> = [];
  for (const line of text.split(/\r?\n/)) {
    const last = headers[headers.length - 1];
    if (/^[ \t]/.test(line) && last) {
      last[1] = `${last[1]} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return headers;
}

/** The first value of a header, by case-insensitive name. */
export function getHeader(headers: readonly MimeHeader[], name: string): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === wanted)?.[1];
}

/**
 * Parses a structured header value such as a Content-Type: `type/subtype; name=value; name="quoted"`.
 * The main value is lower-cased; parameter values keep their case.
 */
export function parseHeaderValue(header: string): HeaderValue {
  const params: Record<string, string> = {};
  let i = 0;
  const readUntil = (stops: string): string => {
    let out = '';
    while (i < header.length && !stops.includes(header[i]!)) out += header[i++];
    return out.trim();
  };
  const value = readUntil(';').toLowerCase();
  while (i < header.length) {
    i++; // the ';'
    const name = readUntil('=;').toLowerCase();
    if (header[i] !== '=') {
      if (name) params[name] = '';
      continue;
    }
    i++; // the '='
    while (header[i] === ' ' || header[i] === '\t') i++;
    let paramValue = '';
    if (header[i] === '"') {
      i++;
      while (i < header.length && header[i] !== '"') {
        if (header[i] === '\\' && i + 1 < header.length) i++;
        paramValue += header[i++];
      }
      i++; // the closing quote
      readUntil(';');
    } else {
      paramValue = readUntil(';');
    }
    if (name) params[name] = paramValue;
  }
  return { value, params };
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Quotes a parameter value when it is not a token (RFC 2045 section 5.1). */
export function quoteIfNeeded(value: string): string {
  return TOKEN.test(value) ? value : `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** `value; name=param; ...`, quoting parameter values as needed. */
export function formatHeaderValue(value: string, params: Record<string, string> = {}): string {
  return [value, ...Object.entries(params).map(([name, param]) => `${name}=${quoteIfNeeded(param)}`)].join('; ');
}

/**
 * `attachment; filename="..."` with an RFC 2231 `filename*` beside the ASCII fallback when the name
 * is not plain ASCII. Control characters are dropped so the value stays one header line.
 */
export function attachmentDisposition(filename: string): string {
  const clean = filename.replace(/[\u0000-\u001f\u007f]/g, '');
  const ascii = clean.replace(/[^\u0020-\u007e]/g, '_');
  const base = `attachment; filename="${ascii.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  if (ascii === clean) return base;
  const encoded = Array.from(encoder.encode(clean), (b) =>
    /[A-Za-z0-9!#$&+\-.^_`|~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('');
  return `${base}; filename*=UTF-8''${encoded}`;
}

/** The file name of a Content-Disposition (RFC 2231 `filename*` preferred). */
export function dispositionFilename(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const { params } = parseHeaderValue(header);
  const extended = params['filename*'];
  if (extended) {
    const match = /^([^']*)'[^']*'(.*)$/.exec(extended);
    if (match) {
      try {
        return decodeURIComponent(match[2]!);
      } catch {
        // fall back to the plain parameter
      }
    }
  }
  return params.filename ?? params.name;
}

/** A fresh multipart boundary. */
export function newBoundary(): string {
  return `----=_as2_${randomBytes(12).toString('hex')}`;
}

/** The body of a multipart entity: each part (headers + body) between delimiters, then the close delimiter. */
export function buildMultipartBody(parts: readonly Uint8Array[], boundary: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    chunks.push(encoder.encode(`--${boundary}${CRLF}`), part, encoder.encode(CRLF));
  }
  chunks.push(encoder.encode(`--${boundary}--${CRLF}`));
  return concatBytes(chunks);
}

/**
 * The exact bytes of each body part of a multipart body (RFC 2046 section 5.1.1): the CRLF before
 * a delimiter belongs to the delimiter, so a part's bytes are what was signed. Bare LF tolerated.
 */
export function splitMultipart(body: Uint8Array, boundary: string): Uint8Array[] {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = `--${boundary}`;
  const parts: Uint8Array[] = [];
  let partStart = -1;
  let from = 0;
  for (;;) {
    const at = bytes.indexOf(delimiter, from, 'latin1');
    if (at < 0) break;
    from = at + delimiter.length;
    if (at > 0 && bytes[at - 1] !== 0x0a) continue; // not at the start of a line
    const closing = bytes[from] === 0x2d && bytes[from + 1] === 0x2d;
    if (partStart >= 0) {
      let end = at;
      if (end > 0 && bytes[end - 1] === 0x0a) end--;
      if (end > 0 && bytes[end - 1] === 0x0d) end--;
      parts.push(body.subarray(partStart, Math.max(end, partStart)));
    }
    if (closing) return parts;
    const lineEnd = bytes.indexOf(0x0a, from);
    if (lineEnd < 0) break;
    partStart = lineEnd + 1;
    from = partStart;
  }
  // No close delimiter: keep what follows the last delimiter as the last part.
  if (partStart >= 0 && partStart <= bytes.length) parts.push(body.subarray(partStart));
  return parts;
}

/** Base64 in lines of 76 characters with CRLF (RFC 2045 section 6.8). */
export function base64Lines(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += 76) lines.push(text.slice(i, i + 76));
  return lines.join(CRLF) + CRLF;
}

/** The body with its Content-Transfer-Encoding undone (base64 and quoted-printable; others as they are). */
export function decodedBody(entity: MimeEntity): Uint8Array {
  const encoding = (getHeader(entity.headers, 'content-transfer-encoding') ?? '').trim().toLowerCase();
  if (encoding === 'base64')
    return Buffer.from(
      Buffer.from(entity.body)
        .toString('latin1')
        .replace(/[^A-Za-z0-9+/=]/g, ''),
      'base64',
    );
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(Buffer.from(entity.body).toString('latin1'));
  return entity.body;
}

function decodeQuotedPrintable(text: string): Uint8Array {
  const out: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    const hex = soft.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      out.push(c.charCodeAt(0) & 0xff);
    }
  }
  return Uint8Array.from(out);
}

// ---------------------------------------------------------------------------------------------
// Message integrity check (RFC 4130 section 7.3.1)

/** The hash algorithms of AS2 signatures and MICs, by the names of the connection settings. */
export const MIC_ALGORITHMS = {
  SHA1: { hash: 'sha1', micalg: 'sha1', webCrypto: 'SHA-1' },
  SHA256: { hash: 'sha256', micalg: 'sha-256', webCrypto: 'SHA-256' },
  SHA384: { hash: 'sha384', micalg: 'sha-384', webCrypto: 'SHA-384' },
  SHA512: { hash: 'sha512', micalg: 'sha-512', webCrypto: 'SHA-512' },
} as const;

export type MicAlgorithmName = keyof typeof MIC_ALGORITHMS;

/** The algorithm of a setting (`SHA256`) or of a micalg (`sha-256`, `sha256`, `SHA-256`); `undefined` if unknown. */
export function micAlgorithmOf(name: string | undefined): MicAlgorithmName | undefined {
  const key = (name ?? '').trim().toUpperCase().replace(/-/g, '');
  return key in MIC_ALGORITHMS ? (key as MicAlgorithmName) : undefined;
}

/** The MIC as an MDN carries it in Received-Content-MIC: `base64digest, micalg`. */
export function computeMic(content: Uint8Array, algorithm: MicAlgorithmName): string {
  const { hash, micalg } = MIC_ALGORITHMS[algorithm];
  return `${createHash(hash).update(content).digest('base64')}, ${micalg}`;
}

/** Splits a Received-Content-MIC value into its digest and algorithm. */
export function parseMic(value: string): { digest: string; algorithm: MicAlgorithmName | undefined; micalg: string } {
  const comma = value.lastIndexOf(',');
  const digest = (comma >= 0 ? value.slice(0, comma) : value).trim();
  const micalg = comma >= 0 ? value.slice(comma + 1).trim() : '';
  return { digest, algorithm: micAlgorithmOf(micalg), micalg };
}
