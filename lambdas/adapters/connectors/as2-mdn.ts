import { decodedBody, getHeader, type MimeEntity, parseEntity, parseHeaderBlock, parseHeaderValue, splitMultipart } from './as2-mime';

/**
 * Reading AS2 message disposition notifications (RFC 4130 section 7, RFC 3798): the parts of a
 * multipart/signed entity, the disposition-notification fields of a multipart/report, and the
 * disposition itself. Pure parsing: bad input comes back as `{ ok: false, reason }`.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The two parts of a multipart/signed entity (RFC 1847). */
export interface SignedParts {
  /** The first part, exactly as received: the bytes the signature covers. */
  content: MimeEntity;
  /** The signature, transfer-decoded. */
  signature: Uint8Array;
  /** The micalg parameter, when given. */
  micalg: string | undefined;
}

/** Splits a multipart/signed entity into its signed content and its detached signature. */
export function splitSigned(entity: MimeEntity): Parsed<SignedParts> {
  const contentType = parseHeaderValue(getHeader(entity.headers, 'content-type') ?? '');
  if (contentType.value !== 'multipart/signed') return { ok: false, reason: `not multipart/signed but ${contentType.value || 'untyped'}` };
  const boundary = contentType.params.boundary;
  if (!boundary) return { ok: false, reason: 'multipart/signed without a boundary' };
  const parts = splitMultipart(entity.body, boundary);
  if (parts.length !== 2) return { ok: false, reason: `multipart/signed with ${parts.length} parts, expected 2` };
  const signatureEntity = parseEntity(parts[1]!);
  const signatureType = parseHeaderValue(getHeader(signatureEntity.headers, 'content-type') ?? '').value;
  if (signatureType !== 'application/pkcs7-signature' && signatureType !== 'application/x-pkcs7-signature')
    return { ok: false, reason: `the signature part is ${signatureType || 'untyped'}, not application/pkcs7-signature` };
  return {
    ok: true,
    value: { content: parseEntity(parts[0]!), signature: decodedBody(signatureEntity), micalg: contentType.params.micalg },
  };
}

/** A disposition (RFC 3798 section 3.2.6, RFC 4130 section 7.5.3). */
export interface Disposition {
  /** The field as received, whitespace collapsed. */
  text: string;
  /** `processed` or `failed`, lower-cased. */
  type: string;
  /** What follows `/`, e.g. `error: decryption-failed`; absent when none. */
  modifier: string | undefined;
  /** `processed` with no error or failure modifier (a warning is still a success). */
  processed: boolean;
}

export function parseDisposition(value: string): Disposition {
  const text = value.replace(/\s+/g, ' ').trim();
  const semicolon = text.indexOf(';');
  const rest = semicolon >= 0 ? text.slice(semicolon + 1).trim() : text;
  const slash = rest.indexOf('/');
  const type = (slash >= 0 ? rest.slice(0, slash) : rest).trim().toLowerCase();
  const modifier = slash >= 0 ? rest.slice(slash + 1).trim() : undefined;
  const failing = modifier !== undefined && /^(error|failure|failed)\b/i.test(modifier);
  return { text, type, modifier, processed: type === 'processed' && !failing };
}

/** The machine-readable part of an MDN. */
export interface Mdn {
  /** The disposition-notification fields by lower-cased name. */
  fields: Record<string, string>;
  disposition: Disposition;
  originalMessageId: string | undefined;
  receivedContentMic: string | undefined;
  /** The human-readable part, when there is one. */
  explanation: string | undefined;
}

/** Reads an MDN from its multipart/report entity. */
export function parseMdnReport(report: MimeEntity): Parsed<Mdn> {
  const contentType = parseHeaderValue(getHeader(report.headers, 'content-type') ?? '');
  let notification: MimeEntity | undefined;
  let explanation: string | undefined;
  if (contentType.value === 'multipart/report') {
    const boundary = contentType.params.boundary;
    if (!boundary) return { ok: false, reason: 'multipart/report without a boundary' };
    for (const raw of splitMultipart(report.body, boundary)) {
      const part = parseEntity(raw);
      const partType = parseHeaderValue(getHeader(part.headers, 'content-type') ?? 'text/plain').value;
      if (partType === 'message/disposition-notification') notification ??= part;
      else if (partType === 'text/plain' && explanation === undefined) explanation = Buffer.from(decodedBody(part)).toString('utf8').trim();
    }
  } else if (contentType.value === 'message/disposition-notification') {
    notification = report;
  } else {
    return { ok: false, reason: `the MDN is ${contentType.value || 'untyped'}, not multipart/report` };
  }
  if (!notification) return { ok: false, reason: 'the MDN has no message/disposition-notification part' };
  const fields: Record<string, string> = {};
  for (const [name, value] of parseHeaderBlock(Buffer.from(decodedBody(notification)).toString('utf8')))
    fields[name.toLowerCase()] ??= value;
  const disposition = fields.disposition;
  if (!disposition) return { ok: false, reason: 'the MDN has no Disposition field' };
  return {
    ok: true,
    value: {
      fields,
      disposition: parseDisposition(disposition),
      originalMessageId: fields['original-message-id'],
      receivedContentMic: fields['received-content-mic'],
      explanation,
    },
  };
}

/** Message-IDs compared without angle brackets and surrounding space. */
export function sameMessageId(a: string, b: string): boolean {
  const bare = (id: string) => id.trim().replace(/^<|>$/g, '').trim();
  return bare(a) === bare(b);
}
