/**
 * Interchange (ISA) and functional group (GS) header values by name: what the reader gives for a
 * file, and what the generator writes (where a few of them have defaults).
 */

/** ISA values by name, unpadded except where the file had other widths. */
export interface IsaValues {
  authorizationQualifier: string;
  authorization: string;
  securityQualifier: string;
  security: string;
  senderQualifier: string;
  senderId: string;
  receiverQualifier: string;
  receiverId: string;
  date: string;
  time: string;
  /** ISA11: the repetition separator (00402 on) or the standards identifier (before). */
  repetitionOrStandardsId: string;
  version: string;
  controlNumber: string;
  acknowledgmentRequested: string;
  usage: string;
}

export interface GsValues {
  functionalIdentifierCode: string;
  applicationSenderCode: string;
  applicationReceiverCode: string;
  date: string;
  time: string;
  controlNumber: string;
  responsibleAgencyCode: string;
  release: string;
}
