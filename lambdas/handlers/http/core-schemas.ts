import { z } from 'zod';

/** Request schemas of the core outbound endpoints; the OpenAPI document is generated from them. */

export const PARTNERSHIP_ID = z
  .string()
  .min(1)
  .max(81)
  .regex(/^[a-zA-Z0-9._-]+$/, 'only letters, digits, dot, underscore and hyphen')
  .meta({ description: 'Partnership identifier, 1 to 81 characters of [a-zA-Z0-9._-]' });

export const TRANSACTION_SETTING_ID = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[a-zA-Z0-9_-]+$/, 'only letters, digits, underscore and hyphen')
  .meta({ description: 'Outbound transaction setting identifier' });

export const FILENAME = z
  .string()
  .min(1)
  .max(300)
  .regex(/^[a-zA-Z0-9.*'()!_-]+$/, "only letters, digits and . * ' ( ) ! _ -")
  .meta({ description: 'Name of the generated file, 1 to 300 characters; files with the same name are overwritten' });

export const CHARACTER_SET = z.enum(['Basic', 'Extended', 'ExtendedHipaa']);

export const REPAIR_OPTIONS = z
  .strictObject({
    trimTrailingSpaces: z.boolean().optional(),
    uppercase: z.boolean().optional(),
    replaceConfusable: z.boolean().optional(),
    removeDiacritical: z.boolean().optional(),
    replaceNonBasicCharacters: z.boolean().optional(),
    replaceCanonicalDelimitersConflicts: z.boolean().optional(),
    stediReplaceCanonicalDelimitersConflicts: z.boolean().optional(),
    trimTrailingZeroes: z.boolean().optional(),
  })
  .meta({ id: 'RepairOptions', description: 'Repairs applied during generation so values meet X12 requirements' });

const DELIMITER = z
  .string()
  .length(1)
  .regex(/^[^a-zA-Z0-9]$/, 'one non-alphanumeric character');

export const INTERCHANGE_OVERRIDES = z
  .strictObject({
    interchangeUsageIndicator: z.enum(['I', 'T', 'P']).optional(),
    acknowledgmentRequestedCode: z.enum(['0', '1']).optional(),
    interchangeControlVersionNumberCode: z
      .string()
      .regex(/^[0-9]{5}$/, 'five digits')
      .optional(),
    delimiters: z
      .strictObject({
        element: DELIMITER.optional(),
        composite: DELIMITER.optional(),
        repetition: DELIMITER.optional(),
        segment: DELIMITER.optional(),
      })
      .optional(),
  })
  .meta({ id: 'InterchangeOverrides' });

export const INTERCHANGE_AUTHORIZATION = z
  .strictObject({
    authorizationInformationQualifier: z.enum(['00', '01', '02', '03', '04', '05', '06', '07', '08']).optional(),
    authorizationInformation: z.string().max(10).optional(),
    securityInformationQualifier: z.enum(['00', '01']).optional(),
    securityInformation: z.string().max(10).optional(),
  })
  .meta({ id: 'InterchangeAuthorization' });

export const CREATE_TRANSACTION_BODY = z
  .strictObject({
    transaction: z.unknown().refine((v) => v !== undefined && v !== null, 'transaction is required'),
    characterSet: CHARACTER_SET.optional(),
    repairOptions: REPAIR_OPTIONS.optional(),
    filename: FILENAME.optional(),
    fragmentGroupIds: z.array(z.string().min(1).max(255)).length(1, 'exactly one fragment group id').optional(),
    mappingId: z.string().min(1).max(255).optional(),
    interchangeOverrides: INTERCHANGE_OVERRIDES.optional(),
  })
  .meta({ id: 'CreateOutboundTransactionRequest' });

const APPLICATION_ID = z.string().min(2).max(15);

export const GENERATE_EDI_BODY = z
  .strictObject({
    transactionGroups: z
      .array(
        z.strictObject({
          transactionSettingId: TRANSACTION_SETTING_ID,
          transactions: z.array(z.unknown()).min(1),
          overrides: z
            .strictObject({ localApplicationId: APPLICATION_ID.optional(), partnerApplicationId: APPLICATION_ID.optional() })
            .optional(),
        }),
      )
      .min(1),
    filename: FILENAME.optional(),
    characterSet: CHARACTER_SET.optional(),
    repairOptions: REPAIR_OPTIONS.optional(),
    overrides: INTERCHANGE_OVERRIDES.optional(),
    interchangeUsageIndicatorOverride: z.enum(['I', 'T', 'P']).optional(),
    interchangeAuthorization: INTERCHANGE_AUTHORIZATION.optional(),
  })
  .meta({ id: 'CreateOutboundInterchangeRequest' });

export const CREATE_TRANSACTION_RESPONSE = z
  .object({ fileExecutionId: z.string(), transactionId: z.string() })
  .meta({ id: 'CreateOutboundTransactionResponse' });

export const GENERATE_EDI_RESPONSE = z
  .object({
    edi: z.string(),
    artifactId: z.string(),
    fileExecutionId: z.string(),
    metadata: z.object({
      interchangeMetadata: z.array(
        z.object({ interchangeControlNumber: z.number().int(), functionalGroupControlNumbers: z.array(z.number().int()) }),
      ),
    }),
  })
  .meta({ id: 'CreateOutboundInterchangeResponse' });

export const ERROR_RESPONSE = z
  .object({
    error: z.string(),
    message: z.string(),
    errors: z.array(z.object({ error: z.string(), message: z.string(), path: z.string().optional() })).optional(),
  })
  .meta({ id: 'Error' });

export const FRAGMENT_GROUP_ID = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[a-zA-Z0-9._-]+$/, 'only letters, digits, dot, underscore and hyphen')
  .meta({ description: 'Fragment group identifier, chosen by the client; the group is created by its first fragment' });

export const ADD_FRAGMENT_BODY = z
  .strictObject({
    guideId: z.string().min(1).max(128).meta({ description: 'The guide whose fragment loop the fragment belongs to' }),
    fragment: z
      .unknown()
      .refine((v) => v !== undefined, 'Required')
      .meta({ description: "One repetition of the guide's fragment loop (Guide JSON), or an array of them" }),
    mappingId: z.string().min(1).max(128).optional().meta({ description: 'A mapping applied to the fragment first' }),
  })
  .meta({ id: 'AddFragmentRequest' });

export const ADD_FRAGMENT_RESPONSE = z
  .object({ fragmentGroupId: z.string(), createdAt: z.string(), fragmentId: z.string(), fragmentIndex: z.number().int() })
  .meta({ id: 'AddFragmentResponse' });

export const RETRY_EXECUTIONS_BODY = z
  .strictObject({
    condition: z.strictObject({
      executionIds: z.array(z.string().min(1).max(128)).min(1).max(100).meta({ description: 'FAILED outbound executions to run again' }),
    }),
  })
  .meta({ id: 'RetryExecutionsRequest' });

export const RETRY_EXECUTIONS_RESPONSE = z
  .object({
    items: z.array(
      z.object({
        executionId: z.string(),
        status: z.literal('RETRIED').optional(),
        childExecutionId: z.string().optional(),
        error: z.string().optional(),
        message: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'RetryExecutionsResponse' });

export const EVENT_ID = z.string().uuid().meta({ description: 'Id of a svc.core event' });
