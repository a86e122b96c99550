import {
  constants,
  createCipheriv,
  createDecipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  webcrypto,
  X509Certificate,
} from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import * as asn1js from 'asn1js';
import {
  AlgorithmIdentifier,
  Attribute,
  Certificate,
  ContentInfo,
  CryptoEngine,
  EncapsulatedContentInfo,
  EncryptedContentInfo,
  EnvelopedData,
  IssuerAndSerialNumber,
  KeyTransRecipientInfo,
  RecipientInfo,
  RSAESOAEPParams,
  SignedAndUnsignedAttributes,
  SignedData,
  SignedDataVerifyError,
  SignerInfo,
} from 'pkijs';
import { MIC_ALGORITHMS, type MicAlgorithmName, micAlgorithmOf } from './as2-mime';

/**
 * CMS for AS2 (RFC 5652, RFC 3274, RFC 5751) with pkijs + asn1js for the ASN.1 structures and
 * signatures (Node's WebCrypto as the engine), and node:crypto for RSA key transport and AES-CBC,
 * because WebCrypto has no RSAES-PKCS1-v1_5, the key transport AS2 partners expect.
 */

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  envelopedData: '1.2.840.113549.1.7.3',
  compressedData: '1.2.840.113549.1.9.16.1.9',
  zlibCompress: '1.2.840.113549.1.9.16.3.8',
  contentTypeAttr: '1.2.840.113549.1.9.3',
  messageDigestAttr: '1.2.840.113549.1.9.4',
  signingTimeAttr: '1.2.840.113549.1.9.5',
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsaesOaep: '1.2.840.113549.1.1.7',
} as const;

/** The content encryption algorithms, by the names of the connection settings. */
export const CONTENT_CIPHERS = {
  aes128_cbc: { oid: '2.16.840.1.101.3.4.1.2', cipher: 'aes-128-cbc', keyLength: 16 },
  aes192_cbc: { oid: '2.16.840.1.101.3.4.1.22', cipher: 'aes-192-cbc', keyLength: 24 },
  aes256_cbc: { oid: '2.16.840.1.101.3.4.1.42', cipher: 'aes-256-cbc', keyLength: 32 },
} as const;

export type ContentCipherName = keyof typeof CONTENT_CIPHERS;

const HASH_BY_OID: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

export const AS2_CMS_ERROR_CODES = [
  'BAD_PRIVATE_KEY',
  'BAD_CERTIFICATE',
  'KEY_MISMATCH',
  'MALFORMED',
  'UNSUPPORTED_ALGORITHM',
  'NO_MATCHING_RECIPIENT',
  'DECRYPTION_FAILED',
  'DECOMPRESSION_FAILED',
  'SIGNATURE_INVALID',
  'SIGNER_UNKNOWN',
] as const;

export type As2CmsErrorCode = (typeof AS2_CMS_ERROR_CODES)[number];

/** A CMS operation that failed for a reason of its input (keys, certificates, data); never quotes a key. */
export class As2CmsError extends Error {
  constructor(
    readonly code: As2CmsErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'As2CmsError';
  }
}

const engine = new CryptoEngine({ name: 'node', crypto: webcrypto as unknown as ConstructorParameters<typeof CryptoEngine>[0]['crypto'] });

function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function ber(schema: { toBER(sizeOnly?: boolean): ArrayBuffer }): Uint8Array {
  return new Uint8Array(schema.toBER(false));
}

function parseBer(bytes: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(arrayBuffer(bytes));
  if (parsed.offset === -1) throw new As2CmsError('MALFORMED', `${what} is not valid BER/DER: ${parsed.result.error}`);
  return parsed.result;
}

function contentInfo(bytes: Uint8Array, expected: string, what: string): ContentInfo {
  let info: ContentInfo;
  try {
    info = new ContentInfo({ schema: parseBer(bytes, what) });
  } catch (error) {
    if (error instanceof As2CmsError) throw error;
    throw new As2CmsError('MALFORMED', `${what} is not a CMS ContentInfo`);
  }
  if (info.contentType !== expected)
    throw new As2CmsError('MALFORMED', `${what} has content type ${info.contentType}, expected ${expected}`);
  return info;
}

/** The content type OID of a CMS ContentInfo, or `undefined` when the bytes are not one. */
export function cmsContentType(bytes: Uint8Array): string | undefined {
  try {
    return new ContentInfo({ schema: parseBer(bytes, 'the content') }).contentType;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Keys and certificates

/**
 * Reads a PEM private key: PKCS#8 (clear or encrypted) or PKCS#1 (clear or with a legacy
 * `Proc-Type: 4,ENCRYPTED` header). `label` names the setting in error messages.
 */
export function loadPrivateKey(pem: string, passphrase: string | undefined, label: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem', ...(passphrase ? { passphrase } : {}) });
  } catch {
    throw new As2CmsError(
      'BAD_PRIVATE_KEY',
      `${label} could not be read: not a PEM private key, or ${passphrase ? 'a wrong passphrase' : 'encrypted and no passphrase is set'}`,
    );
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new As2CmsError('UNSUPPORTED_ALGORITHM', `${label} is a ${key.asymmetricKeyType} key; AS2 here needs RSA`);
  return key;
}

/** The DER certificates of a PEM bundle, in order. */
export function pemCertificates(pem: string | undefined): Uint8Array[] {
  if (!pem) return [];
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new Uint8Array(new X509Certificate(block).raw));
}

/** The first certificate of a PEM text, checked to be an X.509 certificate; `label` names the setting. */
export function loadCertificate(pem: string | undefined, label: string): Certificate {
  let der: Uint8Array | undefined;
  try {
    der = pemCertificates(pem)[0];
  } catch {
    der = undefined;
  }
  if (!der) throw new As2CmsError('BAD_CERTIFICATE', `${label} is not a PEM X.509 certificate`);
  try {
    return Certificate.fromBER(arrayBuffer(der));
  } catch {
    throw new As2CmsError('BAD_CERTIFICATE', `${label} is not a PEM X.509 certificate`);
  }
}

/** Fails when the certificate does not carry the public key of the private key. */
export function assertKeyMatchesCertificate(key: KeyObject, certificate: Certificate, label: string): void {
  const fromKey = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const fromCert = ber(certificate.subjectPublicKeyInfo.toSchema());
  if (!fromKey.equals(Buffer.from(fromCert)))
    throw new As2CmsError('KEY_MISMATCH', `${label}: the private key does not belong to the certificate`);
}

/** Every certificate of a PEM bundle (none when empty). */
export function loadCertificateChain(pem: string | undefined, label: string): Certificate[] {
  try {
    return pemCertificates(pem).map((der) => Certificate.fromBER(arrayBuffer(der)));
  } catch {
    throw new As2CmsError('BAD_CERTIFICATE', `${label} holds something that is not a PEM X.509 certificate`);
  }
}

function publicKeyOf(certificate: Certificate): KeyObject {
  return createPublicKey({ key: Buffer.from(ber(certificate.subjectPublicKeyInfo.toSchema())), format: 'der', type: 'spki' });
}

// ---------------------------------------------------------------------------------------------
// SignedData (detached), RFC 5652 section 5 and RFC 5751 section 3.5.3

export interface SignOptions {
  /** The exact bytes that are signed: the MIME entity, headers included. */
  content: Uint8Array;
  privateKey: KeyObject;
  certificate: Certificate;
  /** Further certificates to include (the signer's chain). */
  chain?: Certificate[];
  algorithm: MicAlgorithmName;
  signingTime?: Date;
}

/** A detached CMS SignedData (DER ContentInfo) with contentType, signingTime and messageDigest signed attributes. */
export async function signDetached(options: SignOptions): Promise<Uint8Array> {
  const { hash, webCrypto } = MIC_ALGORITHMS[options.algorithm];
  const digest = createHash(hash).update(options.content).digest();
  const attributes = [
    new Attribute({ type: OID.contentTypeAttr, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    new Attribute({ type: OID.signingTimeAttr, values: [new asn1js.UTCTime({ valueDate: options.signingTime ?? new Date() })] }),
    new Attribute({ type: OID.messageDigestAttr, values: [new asn1js.OctetString({ valueHex: arrayBuffer(digest) })] }),
  ];
  // DER orders a SET OF by the encodings of its elements; verifiers that re-encode rely on it.
  const sorted = attributes
    .map((attribute) => ({ attribute, encoded: Buffer.from(ber(attribute.toSchema())) }))
    .sort((a, b) => Buffer.compare(a.encoded, b.encoded))
    .map(({ attribute }) => attribute);
  const certificate = options.certificate;
  const signedData = new SignedData({
    version: 1,
    encapContentInfo: new EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new SignerInfo({
        version: 1,
        sid: new IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
        signedAttrs: new SignedAndUnsignedAttributes({ type: 0, attributes: sorted }),
      }),
    ],
    certificates: [certificate, ...(options.chain ?? [])],
  });
  const cryptoKey = await webcrypto.subtle.importKey(
    'pkcs8',
    options.privateKey.export({ type: 'pkcs8', format: 'der' }),
    { name: 'RSASSA-PKCS1-v1_5', hash: webCrypto },
    false,
    ['sign'],
  );
  await signedData.sign(cryptoKey as unknown as Parameters<SignedData['sign']>[0], 0, webCrypto, undefined, engine);
  return ber(new ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) }).toSchema());
}

export interface VerifyResult {
  /** The digest algorithm of the signer. */
  algorithm: MicAlgorithmName | undefined;
}

/**
 * Verifies a detached CMS signature over `content` against one trusted certificate: certificates
 * embedded in the signature are ignored, so a signature made with any other key fails.
 */
export async function verifyDetached(signature: Uint8Array, content: Uint8Array, trusted: Certificate): Promise<VerifyResult> {
  const info = contentInfo(signature, OID.signedData, 'the signature');
  let signedData: SignedData;
  try {
    signedData = new SignedData({ schema: info.content });
  } catch {
    throw new As2CmsError('MALFORMED', 'the signature is not a CMS SignedData');
  }
  if (signedData.signerInfos.length !== 1)
    throw new As2CmsError('MALFORMED', `the signature has ${signedData.signerInfos.length} signers, expected 1`);
  signedData.certificates = [trusted];
  try {
    const result = await signedData.verify({ signer: 0, data: arrayBuffer(content), checkChain: false, extendedMode: true }, engine);
    if (!result.signatureVerified) throw new As2CmsError('SIGNATURE_INVALID', 'the signature does not verify');
  } catch (error) {
    if (error instanceof As2CmsError) throw error;
    if (error instanceof SignedDataVerifyError && error.code === 3)
      throw new As2CmsError('SIGNER_UNKNOWN', 'the signature was not made with the configured certificate');
    const detail = error instanceof Error ? error.message : String(error);
    throw new As2CmsError('SIGNATURE_INVALID', `the signature does not verify (${detail})`);
  }
  const digestOid = signedData.signerInfos[0]!.digestAlgorithm.algorithmId;
  return { algorithm: micAlgorithmOf(HASH_BY_OID[digestOid]) };
}

// ---------------------------------------------------------------------------------------------
// EnvelopedData, RFC 5652 section 6 with RSA key transport (RFC 3370 section 4.2.1)

/** Encrypts `content` for the holder of `recipient` (DER ContentInfo of EnvelopedData). */
export function encryptEnveloped(content: Uint8Array, recipient: Certificate, cipherName: ContentCipherName): Uint8Array {
  const { oid, cipher, keyLength } = CONTENT_CIPHERS[cipherName];
  const key = randomBytes(keyLength);
  const iv = randomBytes(16);
  const encipher = createCipheriv(cipher, key, iv);
  const encrypted = Buffer.concat([encipher.update(content), encipher.final()]);
  let encryptedKey: Buffer;
  try {
    encryptedKey = publicEncrypt({ key: publicKeyOf(recipient), padding: constants.RSA_PKCS1_PADDING }, key);
  } catch {
    throw new As2CmsError('BAD_CERTIFICATE', 'the encryption certificate does not carry an RSA public key');
  }
  const enveloped = new EnvelopedData({
    version: 0,
    recipientInfos: [
      new RecipientInfo({
        variant: 1,
        value: new KeyTransRecipientInfo({
          version: 0,
          rid: new IssuerAndSerialNumber({ issuer: recipient.issuer, serialNumber: recipient.serialNumber }),
          keyEncryptionAlgorithm: new AlgorithmIdentifier({ algorithmId: OID.rsaEncryption, algorithmParams: new asn1js.Null() }),
          encryptedKey: new asn1js.OctetString({ valueHex: arrayBuffer(encryptedKey) }),
        }),
      }),
    ],
    encryptedContentInfo: new EncryptedContentInfo({
      contentType: OID.data,
      contentEncryptionAlgorithm: new AlgorithmIdentifier({
        algorithmId: oid,
        algorithmParams: new asn1js.OctetString({ valueHex: arrayBuffer(iv) }),
      }),
      encryptedContent: new asn1js.OctetString({ valueHex: arrayBuffer(encrypted) }),
      disableSplit: true,
    }),
  });
  return ber(new ContentInfo({ contentType: OID.envelopedData, content: enveloped.toSchema() }).toSchema());
}

function recipientMatches(info: KeyTransRecipientInfo, certificate: Certificate): boolean {
  const rid = info.rid;
  if (rid instanceof IssuerAndSerialNumber)
    return rid.issuer.isEqual(certificate.issuer) && rid.serialNumber.isEqual(certificate.serialNumber);
  const keyId = new Uint8Array(rid.valueBlock.valueHexView);
  const spki = new Uint8Array(certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView);
  return Buffer.from(createHash('sha1').update(spki).digest()).equals(Buffer.from(keyId));
}

/** Decrypts an EnvelopedData addressed to `certificate` with its private key. */
export function decryptEnveloped(data: Uint8Array, privateKey: KeyObject, certificate: Certificate): Uint8Array {
  const info = contentInfo(data, OID.envelopedData, 'the encrypted content');
  let enveloped: EnvelopedData;
  try {
    enveloped = new EnvelopedData({ schema: info.content });
  } catch {
    throw new As2CmsError('MALFORMED', 'the encrypted content is not a CMS EnvelopedData');
  }
  const recipient = enveloped.recipientInfos
    .map((r) => r.value)
    .find((v): v is KeyTransRecipientInfo => v instanceof KeyTransRecipientInfo && recipientMatches(v, certificate));
  if (!recipient) throw new As2CmsError('NO_MATCHING_RECIPIENT', 'the content is not encrypted for our certificate');
  const keyAlgorithm = recipient.keyEncryptionAlgorithm.algorithmId;
  let key: Buffer;
  try {
    const encryptedKey = Buffer.from(recipient.encryptedKey.valueBlock.valueHexView);
    if (keyAlgorithm === OID.rsaEncryption) {
      key = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, encryptedKey);
    } else if (keyAlgorithm === OID.rsaesOaep) {
      const params = recipient.keyEncryptionAlgorithm.algorithmParams
        ? new RSAESOAEPParams({ schema: recipient.keyEncryptionAlgorithm.algorithmParams })
        : new RSAESOAEPParams();
      const oaepHash = HASH_BY_OID[params.hashAlgorithm.algorithmId] ?? 'sha1';
      key = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, encryptedKey);
    } else {
      throw new As2CmsError('UNSUPPORTED_ALGORITHM', `key encryption algorithm ${keyAlgorithm} is not supported`);
    }
  } catch (error) {
    if (error instanceof As2CmsError) throw error;
    throw new As2CmsError('DECRYPTION_FAILED', 'the content encryption key could not be decrypted with our private key');
  }
  const contentAlgorithm = enveloped.encryptedContentInfo.contentEncryptionAlgorithm;
  const cipher = Object.values(CONTENT_CIPHERS).find((c) => c.oid === contentAlgorithm.algorithmId);
  if (!cipher)
    throw new As2CmsError('UNSUPPORTED_ALGORITHM', `content encryption algorithm ${contentAlgorithm.algorithmId} is not supported`);
  const ivBlock = contentAlgorithm.algorithmParams as asn1js.OctetString | undefined;
  const iv = ivBlock instanceof asn1js.OctetString ? Buffer.from(ivBlock.valueBlock.valueHexView) : undefined;
  if (iv?.length !== 16) throw new As2CmsError('MALFORMED', 'the content encryption algorithm has no 16-byte IV');
  try {
    const decipher = createDecipheriv(cipher.cipher, key, iv);
    const encrypted = Buffer.from(enveloped.encryptedContentInfo.getEncryptedContent());
    return new Uint8Array(Buffer.concat([decipher.update(encrypted), decipher.final()]));
  } catch {
    throw new As2CmsError('DECRYPTION_FAILED', 'the content could not be decrypted');
  }
}

// ---------------------------------------------------------------------------------------------
// CompressedData, RFC 3274 (zlib, RFC 1950)

/** A CompressedData (DER ContentInfo) of `content` with id-alg-zlibCompress. */
export function compress(content: Uint8Array): Uint8Array {
  const compressed = deflateSync(content);
  const compressedData = new asn1js.Sequence({
    value: [
      new asn1js.Integer({ value: 0 }),
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: OID.zlibCompress })] }),
      new asn1js.Sequence({
        value: [
          new asn1js.ObjectIdentifier({ value: OID.data }),
          new asn1js.Constructed({
            idBlock: { tagClass: 3, tagNumber: 0 },
            value: [new asn1js.OctetString({ valueHex: arrayBuffer(compressed) })],
          }),
        ],
      }),
    ],
  });
  return ber(new ContentInfo({ contentType: OID.compressedData, content: compressedData }).toSchema());
}

/** The content of a CompressedData; `maxLength` bounds the inflated size. */
export function decompress(data: Uint8Array, maxLength = 512 * 1024 * 1024): Uint8Array {
  const info = contentInfo(data, OID.compressedData, 'the compressed content');
  const fail = (why: string): never => {
    throw new As2CmsError('DECOMPRESSION_FAILED', `the compressed content ${why}`);
  };
  const sequence = info.content;
  if (!(sequence instanceof asn1js.Sequence)) return fail('is not a CompressedData');
  const [version, algorithm, encapsulated] = sequence.valueBlock.value;
  if (!(version instanceof asn1js.Integer) || !(algorithm instanceof asn1js.Sequence) || !(encapsulated instanceof asn1js.Sequence))
    return fail('is not a CompressedData');
  const algorithmOid = algorithm.valueBlock.value[0];
  if (!(algorithmOid instanceof asn1js.ObjectIdentifier) || algorithmOid.valueBlock.toString() !== OID.zlibCompress)
    return fail('uses an unsupported compression algorithm');
  const explicit = encapsulated.valueBlock.value[1];
  if (!(explicit instanceof asn1js.Constructed)) return fail('has no content');
  const octets = explicit.valueBlock.value[0];
  if (!(octets instanceof asn1js.OctetString)) return fail('has no content');
  try {
    return new Uint8Array(inflateSync(Buffer.from(octets.getValue()), { maxOutputLength: maxLength }));
  } catch {
    return fail('could not be inflated');
  }
}
